/**
 * Small-under-load benchmark (not a test): how long a preview of a small model takes
 * while four connections preview a large one, i.e. what sharing the event loop's slice
 * (docs/ENGINE.md "One slice for all of them") costs the small requests in between.
 *
 *   npm run bench:small-under-load                  # builds dist/, then 5,000 vs 20 questions
 *   node bench/small-under-load.bench.mjs --root /path/to/other/checkout   # its dist/
 *   node bench/small-under-load.bench.mjs --large 1000 --small 50 --duration 10
 *
 * The built service (its own process, SQLite in a temporary folder) takes autocannon's
 * load of large previews (`--connections`, 4); meanwhile this process sends one small
 * preview every 20 ms and reports their p50, p90 and max, and the large previews' req/s.
 * Compare checkouts in alternating runs: the machine's noise is ±20 %.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BENCH_SERVICE_ENV, benchTenant, data, startService } from './service-fixture.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
const root = resolve(option('root', repo));
const large = Number(option('large', 5000));
const small = Number(option('small', 20));
const duration = Number(option('duration', 8));
const connections = Number(option('connections', 4));

const autocannon = createRequire(join(repo, 'package.json'))('autocannon');
const { generateModel } = await import(pathToFileURL(join(repo, 'tools', 'gen-model.mjs')).href);

const dataDir = mkdtempSync(join(tmpdir(), 'small-under-load-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const service = await startService(root, { ...BENCH_SERVICE_ENV, DATA_DIR: dataDir });
const { base } = service;
const { token, company, supplier } = await benchTenant(base);

/** A generated model uploaded, and the body of a preview of its answers. */
async function previewBody(questions) {
  const generated = generateModel(questions);
  generated.model.general = { ...generated.model.general, code: `bench-${questions}` };
  const path = `/v1/suppliers/${supplier.id}/models`;
  const model = await data(base, 'POST', path, { token, body: JSON.stringify(generated.model) });
  return JSON.stringify({
    model_id: model.id,
    company_id: company.id,
    questions: generated.answers,
  });
}
const smallBody = await previewBody(small);
const largeBody = await previewBody(large);
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
const preview = async (body) => {
  const res = await fetch(`${base}/v1/carts/preview`, { method: 'POST', headers, body });
  await res.text();
  if (res.status !== 200) throw new Error(`preview: ${res.status}`);
};
for (let i = 0; i < 5; i++) {
  await preview(smallBody);
  await preview(largeBody);
}

const load = autocannon({
  url: `${base}/v1/carts/preview`,
  method: 'POST',
  headers,
  body: largeBody,
  connections,
  duration,
});
// Small previews from the second second to one second before the load ends.
await new Promise((done) => setTimeout(done, 1000));
const times = [];
const until = Date.now() + (duration - 2) * 1000;
while (Date.now() < until) {
  const at = performance.now();
  await preview(smallBody);
  times.push(performance.now() - at);
  await new Promise((done) => setTimeout(done, 20));
}
const result = await load;
times.sort((a, b) => a - b);
const quantile = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
console.log(
  `small-under-load: ${root}, node ${process.version}, ${small} vs ${large} questions, ` +
    `${connections} connections × ${duration} s`,
);
console.table([
  {
    'small previews': times.length,
    'p50 ms': quantile(0.5),
    'p90 ms': quantile(0.9),
    'max ms': quantile(1),
    'large previews req/s': (result.requests.total / result.duration).toFixed(1),
  },
]);
await service.stop();
process.exit(0);
