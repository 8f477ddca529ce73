/**
 * Cart page memory benchmark (not a test): what reading one page of large cart lines
 * costs the service in memory and time. The built service runs with a bounded heap
 * (`--heap-mb`, default 256: about what the 512Mi pod leaves it), a cart gets `--lines`
 * lines (default 50) of a generated `--questions`-question model (default 5,000), and
 * one `GET /v1/carts/{cart_id}?per_page=<lines>` is read as it arrives (bytes counted,
 * not kept). Printed per service: the answer's size and time, the service's RSS before
 * the read and its peak during it (/proc VmHWM, reset before the read), and whether the
 * process lived.
 *
 *   npm run bench:cart-page                          # this checkout (builds dist/ first)
 *   node bench/cart-page.bench.mjs --baseline /path/to/other/checkout   # same run, a "before"
 *   node bench/cart-page.bench.mjs --questions 1000 --lines 50 --heap-mb 512
 *
 * Linux only (/proc). Why: docs/adr/0040-large-answers-and-cart-etags.md.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  data,
  startService,
  uploadModel,
} from './service-fixture.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const repo = resolve(new URL('..', import.meta.url).pathname);
const roots = [resolve(args.root ?? repo), ...(args.baseline ? [resolve(args.baseline)] : [])];
const questions = Number(args.questions ?? 5000);
const lines = Number(args.lines ?? 50);
const heapMb = Number(args['heap-mb'] ?? 256);
const { generateModel } = await import(pathToFileURL(join(repo, 'tools', 'gen-model.mjs')).href);

/** RSS now and its peak, in MB, from /proc (NaN once the process is gone). */
function memory(pid) {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // The process exited and was reaped.
  }
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function measure(root) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cart-page-bench-'));
  const service = await startService(
    root,
    { ...BENCH_SERVICE_ENV, DATA_DIR: dataDir, JWT_ACCESS_TTL: '7200' },
    [`--max-old-space-size=${heapMb}`],
  );
  try {
    const { token, company, supplier } = await benchTenant(service.base);
    const auth = { Authorization: `Bearer ${token}` };
    const json = { ...auth, 'Content-Type': 'application/json' };
    const generated = generateModel(questions);
    const model = JSON.stringify(generated.model);
    const modelId = await uploadModel(service.base, token, supplier.id, model, false);
    const cart = await data(service.base, 'POST', '/v1/carts/new', {
      token,
      body: JSON.stringify({ reference: 'cart page bench', default: false }),
    });
    const line = JSON.stringify({
      cart_id: cart.cart_id,
      model_id: modelId,
      company_id: company.id,
      questions: generated.answers,
    });
    for (let i = 0; i < lines; i++) {
      const res = await fetch(`${service.base}/v1/carts?view=compact`, {
        method: 'POST',
        headers: json,
        body: line,
      });
      if (res.status !== 201) throw new Error(`line ${i}: ${await res.text()}`);
      await res.arrayBuffer();
    }
    const pid = service.child.pid;
    // 5: reset the peak (VmHWM) to the current RSS.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const before = memory(pid);
    const started = performance.now();
    let bytes = 0;
    let status = 0;
    try {
      const res = await fetch(`${service.base}/v1/carts/${cart.cart_id}?per_page=${lines}`, {
        headers: { ...auth, 'Accept-Encoding': 'identity' },
      });
      status = res.status;
      for await (const chunk of res.body) bytes += chunk.length;
    } catch (error) {
      status = `failed: ${error.cause?.message ?? error.message}`;
    }
    const seconds = (performance.now() - started) / 1000;
    const after = memory(pid);
    // A process that died is seen as such once its exit is in; ask it to answer too.
    const alive = await fetch(`${service.base}/health/live`).then(
      (res) => res.ok,
      () => false,
    );
    return {
      root,
      status,
      'answer MB': (bytes / 1e6).toFixed(1),
      seconds: seconds.toFixed(2),
      'RSS before MB': before.rss,
      'RSS peak MB': alive ? after.peak : '',
      'peak − before MB': alive ? after.peak - before.rss : '',
      alive,
    };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `Cart page memory: ${lines} lines of a ${questions}-question model, read as one page; ` +
    `service heap --max-old-space-size=${heapMb}, node ${process.version}`,
);
const rows = [];
for (const root of roots) rows.push(await measure(root));
console.table(rows);
