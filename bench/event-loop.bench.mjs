/**
 * Event-loop benchmark (not a test): the longest event-loop delay
 * (perf_hooks.monitorEventLoopDelay) of the service while it takes a model upload, a
 * preview that misses the compiled-model cache, warm previews, and a page of a cart's
 * lines (CART_PAGE_LINES lines, default 20, each evaluated again and written: 17 MB at
 * 1,000 questions), for generated models of 1,000 and 5,000 questions.
 *
 *   npm run bench:event-loop                 # this checkout (builds dist/ first)
 *   node bench/event-loop.bench.mjs --root /path/to/other/checkout   # e.g. a "before" build
 *   NODE_OPTIONS=--max-semi-space-size=32 npm run bench:event-loop   # as the image runs it
 *   SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench:event-loop
 *   npm run bench:event-loop -- --db postgres   # a fresh database on $BENCH_PG_URL or
 *                                               # postgres://postgres@127.0.0.1:5432/postgres
 *
 * The service runs in a child process (its built dist/, SQLite in a temporary folder) that
 * measures its own loop delay and GC pauses (bench/event-loop-service.mjs); this process
 * is only the client, so none of the client's work shows in the figures. Generator:
 * `--generator` or $GEN_MODEL, default tools/gen-model.mjs (this repository's).
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_ADMIN, benchTenant, pgDatabase } from './service-fixture.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const root = resolve(args.root ?? '.');
const generator = resolve(args.generator ?? process.env.GEN_MODEL ?? 'tools/gen-model.mjs');
const sizes = (args.sizes ?? '1000,5000').split(',').map(Number);
const WARM_PREVIEWS = Number(process.env.WARM_PREVIEWS ?? 10);
const CART_PAGE_LINES = Number(process.env.CART_PAGE_LINES ?? 20);

const database = args.db ?? 'sqlite';
const dataDir = mkdtempSync(join(tmpdir(), 'event-loop-bench-'));

const pg =
  database === 'postgres'
    ? await pgDatabase(
        root,
        process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
        'bench_event_loop',
      )
    : null;
const service = fork(new URL('./event-loop-service.mjs', import.meta.url), [root], {
  // e.g. SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the service.
  execArgv: (process.env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  env: {
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: pg?.url ?? '',
    JWT_SECRET: 'a-benchmark-secret-that-is-long-enough-0123',
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    LOG_LEVEL: 'error',
    SWAGGER_ENABLED: 'false',
    // One cached model: uploading another one evicts, so the next preview misses.
    COMPILED_MODEL_CACHE_SIZE: '1',
  },
});
service.on('exit', (code) => {
  if (code !== 0 && code !== null) {
    console.error(`the service process exited with ${code}`);
    process.exit(1);
  }
});
/** One request to the service process and its answer (`started`, `measured`). */
function ask(message) {
  return new Promise((done) => {
    service.once('message', done);
    service.send(message);
  });
}
const { url: base } = await new Promise((done) => service.once('message', done));

async function call(method, path, token, body, contentType = 'application/json') {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': contentType } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${bytes.toString().slice(0, 500)}`);
  return bytes;
}
const json = (bytes) => JSON.parse(bytes.toString()).data;

const { token, company, supplier } = await benchTenant(base);

/** The service's longest loop delay (and GC pause) while `work` runs. */
async function maxDelay(work) {
  await new Promise((done) => setTimeout(done, 50));
  await ask('start');
  const started = performance.now();
  const result = await work();
  const elapsed = performance.now() - started;
  await new Promise((done) => setTimeout(done, 20));
  const measured = await ask('stop');
  return { result, ...measured, elapsed };
}

/**
 * The same measurement while the service does nothing, for as long as `ms`: on a shared
 * machine the process is sometimes not scheduled, and that shows as loop delay too.
 */
const idle = (ms) => maxDelay(() => new Promise((done) => setTimeout(done, ms)));

const rows = [];
const work = mkdtempSync(join(tmpdir(), 'event-loop-models-'));
try {
  for (const questions of sizes) {
    const modelFile = join(work, `model-${questions}.json`);
    const answersFile = join(work, `answers-${questions}.json`);
    execFileSync(process.execPath, [
      generator,
      '--questions',
      String(questions),
      '--out',
      modelFile,
      '--answers',
      answersFile,
    ]);
    const document = JSON.parse(readFileSync(modelFile, 'utf8'));
    document.general = { ...document.general, code: `bench-${questions}` };
    const body = JSON.stringify(document);
    const preview = JSON.stringify({
      model_id: 0,
      company_id: company.id,
      questions: JSON.parse(readFileSync(answersFile, 'utf8')),
    });

    const upload = await maxDelay(() =>
      call('POST', `/v1/suppliers/${supplier.id}/models`, token, body),
    );
    const modelId = json(upload.result).id;
    const previewBody = preview.replace('"model_id":0', `"model_id":${modelId}`);
    // Evict it: the next preview compiles the stored definition again.
    await call('POST', `/v1/suppliers/${supplier.id}/models`, token, {
      general: { name: 'tiny', code: `tiny-${questions}` },
    });
    const miss = await maxDelay(() => call('POST', '/v1/carts/preview', token, previewBody));
    const warm = await maxDelay(async () => {
      for (let i = 0; i < WARM_PREVIEWS; i++)
        await call('POST', '/v1/carts/preview', token, previewBody);
    });
    // A new cart for this size, filled, then one page of all its lines.
    const cart = json(
      await call('POST', '/v1/carts/new', token, { reference: `page-${questions}` }),
    );
    const lineBody = previewBody.replace('{', `{"cart_id":"${cart.cart_id}",`);
    for (let i = 0; i < CART_PAGE_LINES; i++) await call('POST', '/v1/carts', token, lineBody);
    const page = await maxDelay(() =>
      call('GET', `/v1/carts/${cart.cart_id}?per_page=${CART_PAGE_LINES}`, token),
    );
    const control = await idle(Math.max(upload.elapsed, miss.elapsed));
    rows.push({
      questions,
      'model JSON MB': (body.length / 1024 / 1024).toFixed(1),
      'idle control: max loop delay ms': control.maxMs.toFixed(1),
      'upload: max loop delay ms': upload.maxMs.toFixed(1),
      'upload: longest GC ms': upload.gcMs.toFixed(1),
      'upload: p99 ms': upload.p99Ms.toFixed(1),
      'upload ms': upload.elapsed.toFixed(0),
      'cache-miss preview: max loop delay ms': miss.maxMs.toFixed(1),
      'cache-miss preview ms': miss.elapsed.toFixed(0),
      [`${WARM_PREVIEWS} warm previews: max loop delay ms`]: warm.maxMs.toFixed(1),
      'warm previews: p99 ms': warm.p99Ms.toFixed(1),
      'warm previews: longest GC ms': warm.gcMs.toFixed(1),
      'warm preview ms (mean)': (warm.elapsed / WARM_PREVIEWS).toFixed(1),
      [`cart page (${CART_PAGE_LINES} lines) MB`]: (page.result.length / 1024 / 1024).toFixed(1),
      'cart page: max loop delay ms': page.maxMs.toFixed(1),
      'cart page: longest GC ms': page.gcMs.toFixed(1),
      'cart page ms': page.elapsed.toFixed(0),
    });
  }
} finally {
  service.kill('SIGTERM');
  await new Promise((done) => service.once('exit', done));
  await pg?.drop();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `event-loop benchmark: ${root}, ${database}, node ${process.version}, NODE_OPTIONS=${process.env.NODE_OPTIONS ?? ''}`,
);
console.table(rows);
