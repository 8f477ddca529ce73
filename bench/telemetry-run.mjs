/**
 * The measuring side of `npm run bench:telemetry` (telemetry.bench.mjs): the database
 * fixture every start shares, a variant's service started pinned, warmed up and loaded
 * with fixed batches of previews, and every thread's CPU time read from /proc.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  pgDatabase,
  startService,
  uploadModel,
} from './service-fixture.mjs';
import { connections, nodeArgs, pgAdminUrl, repo, root, serviceEnv } from './http-options.mjs';

const autocannon = createRequire(join(repo, 'package.json'))('autocannon');

/**
 * Nanoseconds each thread of `pid` has been on a CPU (/proc/<pid>/task/<tid>/schedstat),
 * summed by thread name: `MainThread`, `WorkerThread` (the engine workers), `V8Worker`
 * (V8's GC and compiler helpers), libuv's pool… Finer than /proc's 10 ms ticks; a thread
 * that ended takes its time with it (no thread ends while measured).
 */
export function cpuByThread(pid) {
  const byName = {};
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const dir = `/proc/${pid}/task/${task}`;
      const name = readFileSync(`${dir}/comm`, 'utf8').trim();
      const ns = Number(readFileSync(`${dir}/schedstat`, 'utf8').split(' ')[0]);
      byName[name] = (byName[name] ?? 0) + ns;
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return byName;
}

/** An OTLP/HTTP endpoint that accepts every export and keeps nothing. */
export async function startSink() {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    received: () => bytes,
    stop: () => new Promise((done) => server.close(done)),
  };
}

/**
 * Previews against `base`: `amount` of them (every one answered, so the CPU read after
 * covers whole requests), or for `seconds`. Throws on any error or non-2xx.
 */
export async function previews(base, request, { amount, seconds }) {
  const result = await autocannon({
    url: `${base}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    ...(amount ? { amount } : { duration: seconds }),
    timeout: 60,
  });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0)
    throw new Error(
      `${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  return result;
}

/**
 * The database every start shares: a data directory (SQLite; `copies` copies of it, one per
 * service that runs beside another) or a database (PostgreSQL), with the bench tenant and
 * `size`'s model uploaded; the service's environment and the preview to send.
 */
export async function fixture(database, size, port, copies, cleanups) {
  const dataDir = mkdtempSync(join(tmpdir(), 'telemetry-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const pg = database === 'postgres' ? await pgDatabase(root, pgAdminUrl, 'bench_tel') : null;
  if (pg) cleanups.push(pg.drop);
  const env = {
    ...BENCH_SERVICE_ENV,
    DATA_DIR: dataDir,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    JWT_ACCESS_TTL: '7200',
    SHUTDOWN_DELAY: '0',
    ...serviceEnv,
  };
  const service = await startService(root, env, [], { port });
  let request;
  try {
    const { supplier, company, token } = await benchTenant(service.base);
    const modelId = await uploadModel(service.base, token, supplier.id, size.model, size.yaml);
    request = {
      method: 'POST',
      path: '/v1/carts/preview',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model_id: modelId,
        company_id: company.id,
        questions: size.answers ?? {},
      }),
    };
  } finally {
    await service.stop();
  }
  // SQLite: each service gets a copy of the stopped fixture's files, the same for all (none
  // runs on the directory the fixture was made in); PostgreSQL: the one database.
  const dataDirs = [];
  for (let i = 0; i < copies; i++) {
    const copy = `${dataDir}-${i}`;
    cpSync(dataDir, copy, { recursive: true });
    cleanups.push(() => rmSync(copy, { recursive: true, force: true }));
    dataDirs.push(copy);
  }
  if (copies === 0) dataDirs.push(dataDir);
  return { env, request, dataDirs };
}

/**
 * A variant's service on the fixture (`dataDir`, `port`), pinned to `cpu` when given,
 * loaded for `warmup` seconds (the version's load in its workers, the JIT: discarded).
 * `args`: node's flags (--node-args unless given: the profiler's, telemetry-profile.mjs).
 */
export async function startWarm(variant, at, { port, dataDir, cpu, warmup, args = nodeArgs }) {
  const env = { ...at.env, DATA_DIR: dataDir, ...variant.env(at.sink.url) };
  const launcher = cpu === null ? [] : ['taskset', '-c', cpu];
  const service = await startService(variant.root, env, args, { port, launcher });
  try {
    if (warmup > 0) await previews(service.base, at.request, { seconds: warmup });
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { ...service, pid: service.child.pid };
}

/** Milliseconds on a CPU, every thread of `pid`. */
const cpuMs = (pid) => Object.values(cpuByThread(pid)).reduce((sum, ns) => sum + ns, 0) / 1e6;

/**
 * One batch of `amount` previews: its wall time, latencies, and the CPU per request of
 * the batch alone (for the --json record: the round's figure also counts deferred work).
 */
export async function batch(service, request, amount) {
  const before = cpuMs(service.pid);
  const result = await previews(service.base, request, { amount });
  return {
    cpuMs: (cpuMs(service.pid) - before) / result.requests.total,
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}
