/**
 * Where a request's CPU goes, thread by thread (not a test): the built service (SQLite, or
 * PostgreSQL with --pg-url) under `--connections` of one kind of request for `--duration`
 * seconds (autocannon, as `npm run bench:http` loads it), and each thread group's CPU per
 * request from /proc/<pid>/task (Linux): the main thread, the engine workers, V8's GC
 * helper threads, libuv's pool (zlib). Also the process's peak RSS. What ADR 0131's
 * figures (bench/README.md, "Worker heap bound") were read with.
 *
 *   npm run build && node bench/threads.bench.mjs --kind preview --size 5000 --duration 10
 *   node bench/threads.bench.mjs --kind put --size 1000 --env EVALUATION_WORKER_HEAP_MB=192
 *
 * --kind preview | put (stored lines reconfigured with the same answers, one per
 * connection); --size window | <questions> (bench/http-sizes.mjs); --duration (5),
 * --connections (4) and --env KEY=VALUE,… as bench:http reads them; --pg-url <database url>.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
import { connections, option, repo, serviceEnv } from './http-options.mjs';
import { load, statCpuSeconds } from './http-measure.mjs';
import { putRequests } from './http-scenarios.mjs';

const kind = option('kind', 'preview');
const pgUrl = option('pg-url', null);

/** CPU seconds per thread of `pid`, keyed by thread id and name. */
function threadCpu(pid) {
  const cpu = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      cpu.set(`${tid} ${name}`, statCpuSeconds(stat));
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
  ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
  ...serviceEnv,
});
try {
  const { token, company, supplier } = await benchTenant(service.base);
  const size = await sizeModel(option('size', '5000'));
  const modelId = await uploadModel(service.base, token, supplier.id, size.model, size.yaml);
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const configuration = { model_id: modelId, company_id: company.id, questions: size.answers };
  const body = JSON.stringify(configuration);
  const request =
    kind === 'put'
      ? await putRequests(service.base, { body, headers }, size.answers, connections)
      : { method: 'POST', path: '/v1/carts/preview', headers, body };
  for (let i = 0; i < 8; i++) await call(service.base, request.method, request.path, request);
  const before = threadCpu(service.child.pid);
  const run = await load(service.base, request, service.child.pid, false);
  const after = threadCpu(service.child.pid);
  const groups = new Map();
  for (const [key, seconds] of after) {
    const group = groupOf(key.slice(key.indexOf(' ') + 1));
    groups.set(group, (groups.get(group) ?? 0) + seconds - (before.get(key) ?? 0));
  }
  const perRequest = (seconds) => ((1000 * seconds) / run.requests).toFixed(1);
  const rows = [...groups]
    .filter(([, seconds]) => seconds > 0)
    .map(([thread, seconds]) => ({ thread, 'CPU ms/request': perRequest(seconds) }));
  rows.push({ thread: 'all', 'CPU ms/request': perRequest(run.cpu) });
  const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  const peakMb = Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
  const rate = (run.requests / run.seconds).toFixed(1);
  console.log(
    `${kind} ${size.label}: ${run.requests} requests, ${rate} req/s, peak RSS ${peakMb.toFixed(0)} MB`,
  );
  console.table(rows);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
