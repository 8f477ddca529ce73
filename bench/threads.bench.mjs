/**
 * Where a request's CPU goes, thread by thread (not a test): the built service (SQLite, or
 * PostgreSQL with --pg-url) under 4 connections of one kind of request for some seconds,
 * and each thread group's CPU per request from /proc/<pid>/task (Linux): the main thread,
 * the engine workers, V8's GC helper threads, libuv's pool (zlib). Also the process's peak
 * RSS. What ADR 0131's figures (bench/README.md, "Worker heap bound") were read with.
 *
 *   npm run build && node bench/threads.bench.mjs --kind preview --size 5000 --seconds 10
 *   node bench/threads.bench.mjs --kind put --size 1000 --env EVALUATION_WORKER_HEAP_MB=192
 *
 * --kind preview | put (a stored line reconfigured with the same answers, one per
 * connection); --size window | <questions> (bench/http-sizes.mjs); --seconds (10);
 * --env KEY=VALUE,… (more of the service's environment); --pg-url <database url>.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  call,
  startService,
  uploadModel,
} from './service-fixture.mjs';
import { sizeModel } from './http-sizes.mjs';
import { repo } from './http-options.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
const kind = option('kind', 'preview');
const seconds = Number(option('seconds', 10));
const env = Object.fromEntries(
  option('env', '')
    .split(',')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const pgUrl = option('pg-url', null);
const CONNECTIONS = 4;

/** CPU milliseconds per thread of `pid`, by thread id and name. */
function threadCpu(pid) {
  const cpu = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(`${tid} ${name}`, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}

/** Thread names as Linux shows them (Node names its threads), said plainly. */
const THREAD_GROUPS = {
  MainThread: 'main thread',
  WorkerThread: 'worker threads (the engine)',
  V8Worker: 'V8 helper threads (GC)',
  'libuv-worker': 'libuv pool (zlib)',
};
const groupOf = (name) => THREAD_GROUPS[name] ?? name;

const dataDir = mkdtempSync(join(tmpdir(), 'threads-bench-'));
const service = await startService(repo, {
  ...BENCH_SERVICE_ENV,
  DATA_DIR: dataDir,
  EVALUATION_TIMEOUT_MS: '60000',
  ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
  ...env,
});
try {
  const tenant = await benchTenant(service.base);
  const size = await sizeModel(option('size', '5000'));
  const modelId = await uploadModel(
    service.base,
    tenant.token,
    tenant.supplier.id,
    size.model,
    size.yaml,
  );
  const headers = { Authorization: `Bearer ${tenant.token}`, 'Content-Type': 'application/json' };
  const body = JSON.stringify({
    model_id: modelId,
    company_id: tenant.company.id,
    questions: size.answers,
  });
  let requests = [{ method: 'POST', path: '/v1/carts/preview', headers, body }];
  if (kind === 'put') {
    requests = [];
    for (let c = 0; c < CONNECTIONS; c++) {
      const added = JSON.parse(
        (await call(service.base, 'POST', '/v1/carts', { body, headers })).text,
      ).data;
      const path = `/v1/carts/${added.cart_id}/lines/${added.id}`;
      requests.push({
        method: 'PUT',
        path,
        headers,
        body: JSON.stringify({ questions: size.answers }),
      });
    }
  }
  for (let i = 0; i < 8; i++)
    await call(service.base, requests[0].method, requests[0].path, requests[0]);
  const autocannon = createRequire(join(repo, 'package.json'))('autocannon');
  const before = threadCpu(service.child.pid);
  let client = 0;
  const result = await autocannon({
    url: `${service.base}${requests[0].path}`,
    ...requests[0],
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 60,
    setupClient: (c) => c.setRequests([requests[client++ % requests.length]]),
  });
  const after = threadCpu(service.child.pid);
  const done = result.requests.total;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  const groups = new Map();
  for (const [key, ms] of after) {
    const group = groupOf(key.slice(key.indexOf(' ') + 1));
    groups.set(group, (groups.get(group) ?? 0) + ms - (before.get(key) ?? 0));
  }
  const rows = [...groups]
    .filter(([, ms]) => ms > 0)
    .map(([group, ms]) => ({ thread: group, 'CPU ms/request': (ms / done).toFixed(1) }));
  const all = [...groups.values()].reduce((sum, ms) => sum + ms, 0);
  rows.push({ thread: 'all', 'CPU ms/request': (all / done).toFixed(1) });
  const peak = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))[1];
  console.log(
    `${kind} ${size.label}: ${done} requests, ${(done / result.duration).toFixed(1)} req/s, peak RSS ${(peak / 1024).toFixed(0)} MB`,
  );
  console.table(rows);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
