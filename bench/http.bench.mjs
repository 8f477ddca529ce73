/**
 * HTTP benchmark (not a test): the built service (dist/src/main.js, its own process)
 * beside bare `node:http` floors doing the same work (bench/http-floor.mjs), measured in
 * the same run with autocannon, on SQLite and on PostgreSQL. What counts are the ratios
 * of one run, not the absolute numbers (the machine is shared). The report's head gives
 * what the machine charges for a syscall, a fresh page of memory, a hop to a worker thread
 * and a pass of computation (machine.bench.mjs): absolute goals (a click's milliseconds)
 * and even the floors' ratios move with them from one machine to another.
 *
 *   npm run bench:http                      # builds dist/, then everything (~5 minutes)
 *   npm run bench:http -- --quick           # SQLite, window + 1,000 questions, short runs
 *   node bench/http.bench.mjs --db sqlite --sizes window,1000 --duration 3 --rounds 1
 *   node bench/http.bench.mjs --root /path/to/other/checkout   # its dist/ (a "before")
 *
 *   node bench/http.bench.mjs --sizes medium,megane --model /work/renault-big/model.json
 *
 * Options: --db sqlite,postgres; --pg <url> (an admin URL; default $BENCH_PG_URL or
 * postgres://postgres@127.0.0.1:5432/postgres: a fresh database is created there and
 * dropped); --sizes window,1000,5000; --duration <s per measurement> (5); --rounds <n>
 * (2: floor and service alternate, to even out a noisy machine); --connections <n> (4);
 * --node-args "<flags for the service's node>" (default $BENCH_NODE_ARGS, else the
 * NODE_OPTIONS of the checkout's Dockerfile, as the image runs it); --service-log <file>
 * writes what the service printed to <file>.<db> (with `--node-args --trace-gc`: its GCs);
 * BENCH_CLICK_LOG=<file> logs each real-car click's end time (bench/click-log.mjs: to place
 * those GCs among the clicks);
 * --env KEY=VALUE,… (more of the service's environment; EVALUATION_TIMEOUT_MS is 60000
 * unless given); --json <file> (the tables, for comparing runs); --clicks-out <prefix> (each
 * real car's clicks, one by one: <prefix>-<view>.json); --detail adds the compact
 * view without compression and the full view with gzip; sizes `medium` and `megane` are
 * the real cars of ../shared/benchmarks (BENCHMARKS overrides the folder); --model
 * <model.json> (repeatable) adds any model as a real car, or with --answers <answers.json>
 * (the first model only) previewed with those answers; --clicks <n> (200) previews timed
 * per real car, --seed <n> (42) of their walks, --clicks-only (real cars: only the clicks,
 * not the scenarios below), --view <full|compact|full,compact> (compact, the configure
 * page's: the view the clicks ask for; with both, a row each, the same answer sets,
 * `--alternate click|walk` (click) says how they take turns); --sequential <n> (25) previews per target per round of the
 * sequential comparison below, --sequential-rounds <n> (4), --sequential 0 leaves it out,
 * --sequential-only measures nothing else per model; --stack-floors adds the architecture's
 * floors to the sequential comparison (http-floor-stack.mjs, ADR 0234: the evaluation in a
 * worker thread behind bare node:http, and behind a minimal NestJS app with the JWT check
 * and the session read); --no-default
 * leaves out GET /v1/carts/default; --cart <size> fills the cart of GET /v1/carts/{id}
 * with lines of that model, --no-cart leaves it out (a checkout without stored snapshots); --no-engine leaves out the evaluation table;
 * --telemetry runs the telemetry comparison instead (issue 41): bench/telemetry.bench.mjs,
 * `npm run bench:telemetry`, with the same command line;
 * --baseline <checkout> also runs that checkout's built service (its own database) and
 * measures its full-view preview in the same alternation, so that compact + gzip is set
 * against it too (#11 asks for ≤ 0.5× of the full view "today": the build of the day the
 * issue was filed).
 *
 * Evaluation: after the scenarios of a model, the median `cache.evaluated_in_ms` of
 * sequential previews (the engine inside the service) beside the same evaluation run
 * by this process alone, in a loop, on the same model and answers (the engine alone):
 * how much the service's surroundings (other requests' garbage, serialization) cost the
 * engine itself.
 *
 * Scenarios: GET /v1/carts/default against a floor with the same JWT check and the two
 * indexed reads; GET /v1/carts/{id} of a cart with 10 stored lines (of the `--cart` size's
 * model, default window; --no-cart leaves it out) against a floor with the same JWT check
 * that reads the same rows from the same database and inflates their snapshots (issue #27:
 * ≥ 0.5 of it); POST /v1/carts/preview (full view, no compression) against a floor that
 * parses the body, runs the same evaluation in-process (the checkout's dist engine, the
 * model compiled once) and sends the same bytes (issue #27: ≤ 1.3× its time), and against
 * one that only stringifies and sends the very same answer; the same preview with
 * `?view=compact` and `Accept-Encoding: gzip` against the full view; POST /v1/carts
 * against the preview of the same configuration (each run starts a new default cart); PUT
 * of a stored line (reconfigured with the same answers) against the same preview, and PUT's
 * floor (the evaluate floor, then the line's full view deflated and one durable UPDATE of
 * its row) against the evaluate floor: the least a PUT can cost beyond a preview.
 * For every service run, its longest event-loop delay (`loop max ms`, from its /metrics).
 *
 * Sequential previews (http-sequential.mjs): the full-view preview and the evaluate floor,
 * one request at a time over one kept-alive connection, in alternating blocks: median and
 * p99 of each, and the service's median over the floor's (goal ≤ 1.3 at 100, 1,000 and
 * 5,000 questions: what a buyer feels, beside the concurrent figures); each target's CPU
 * per request (its process, and its main thread alone) and that over the floor's.
 *
 * Real cars (issue #28, "over HTTP, the whole preview: p99 ≤ 100 ms on every real car"):
 * before their scenarios, `--clicks` sequential previews of random walks over the options
 * shown available, and of sold cars entered value by value where the car has sales
 * (bench/http-real-cars.mjs): median, p99 and max per car, beside the engine's own time,
 * and the time of the first preview after the car's upload was answered (goal ≤ 50 ms:
 * the version is prepared before the answer, docs/adr/0197).
 *
 * Modules: http-options.mjs (this command line), http-measure.mjs (autocannon, the
 * tables), http-sizes.mjs (the models), http-floors.mjs (starting and checking floors),
 * http-scenarios.mjs, http-real-cars.mjs; the floors' server is http-floor.mjs (with
 * http-floor-common.mjs, and http-floor-stack.mjs and http-floor-worker.mjs for the
 * architecture's floors).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  data,
  pgDatabase,
  startService,
} from './service-fixture.mjs';
import { tables } from './http-measure.mjs';
import { describeCosts, machineCosts } from './machine.bench.mjs';
import { cleanups } from './http-floors.mjs';
import { benchDefaultCart, benchPreviews } from './http-scenarios.mjs';
import { sizeModel } from './http-sizes.mjs';
import {
  baselineRoot,
  connections,
  databases,
  duration,
  flag,
  jsonOut,
  nodeArgs,
  option,
  pgAdminUrl,
  root,
  rounds,
  serviceEnv,
  sizes,
} from './http-options.mjs';

/**
 * A checkout's built service on a database of its own (a fresh directory or PG database).
 */
async function startBenchService(serviceRoot, database) {
  const dataDir = mkdtempSync(join(tmpdir(), 'http-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const pg =
    database === 'postgres' ? await pgDatabase(serviceRoot, pgAdminUrl, 'bench_http') : null;
  if (pg) cleanups.push(pg.drop);
  const service = await startService(
    serviceRoot,
    {
      ...BENCH_SERVICE_ENV,
      DATA_DIR: dataDir,
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      JWT_ACCESS_TTL: '7200',
      CART_MAX_LINES: '100000',
      ...serviceEnv,
    },
    nodeArgs,
  );
  return { service, dataDir, pg };
}

/** The baseline checkout's service and tenant (--baseline), or null. */
async function startBaseline(database) {
  if (baselineRoot === null) return null;
  const { service } = await startBenchService(baselineRoot, database);
  try {
    return { service, tenant: await benchTenant(service.base) };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function benchDatabase(database) {
  const { service, dataDir, pg } = await startBenchService(root, database);
  const at = { database, base: service.base, pid: service.child.pid, dataDir, pg, floors: [] };
  try {
    at.baseline = await startBaseline(database);
    Object.assign(at, await benchTenant(at.base));
    at.newDefaultCart = () =>
      data(at.base, 'POST', '/v1/carts/new', {
        token: at.token,
        body: JSON.stringify({ reference: `bench ${Date.now()}`, default: true }),
      });
    await at.newDefaultCart();
    // --no-default: previews only (e.g. against a checkout whose schema the floor does not know).
    if (!flag('no-default')) await benchDefaultCart(at);
    for (const name of sizes) await benchPreviews(at, name, await sizeModel(name));
  } finally {
    for (const floor of at.floors) await floor.stop();
    await at.baseline?.service.stop();
    await service.stop();
    // --service-log <file>: what the service printed (e.g. with --node-args --trace-gc).
    const log = option('service-log', null);
    if (log !== null) writeFileSync(`${log}.${database}`, service.output());
  }
}

const started = Date.now();
// What this machine charges for a syscall, a fresh page, a thread hop (machine.bench.mjs):
// measured before the services start, so that it measures the machine, not their load.
const machine = describeCosts(await machineCosts());
// --telemetry: a harness of its own (services pinned, started afresh, batches in rotation).
if (flag('telemetry')) await import('./telemetry.bench.mjs');
else
  try {
    for (const database of databases) await benchDatabase(database);
  } finally {
    for (const cleanup of cleanups.reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch(() => {});
    // What was measured is printed even when a later scenario failed.
    report();
  }

function report() {
  console.log(
    `\nHTTP benchmark: ${root}, node ${process.version}, ${connections} connections, ` +
      `${rounds} × ${duration} s per target, ${((Date.now() - started) / 1000).toFixed(0)} s in all` +
      (nodeArgs.length ? `, service node ${nodeArgs.join(' ')}` : '') +
      `\nmachine: ${machine}`,
  );
  console.log(
    'ratio: req/s of the same run; for the service against a floor or a preview, its time per ' +
      'request over theirs (req/s inverted); for GET /v1/carts/default and /v1/carts/{id}, its throughput over the ' +
      'floor’s (the goal column). CPU ratio: the same from the CPU each process used per request ' +
      '(/proc; all threads; not the database server), which other load on the machine hardly moves. ' +
      'loop max ms: the service’s longest event-loop delay during the load (its /metrics; ' +
      '10 ms resolution; goal ≤ 50).',
  );
  console.table(tables.rows);
  if (tables.clicks.length > 0) {
    console.log(
      'Real cars: sequential previews (one at a time), from the request to the last byte of ' +
        'the answer; engine: the same previews’ cache.evaluated_in_ms.',
    );
    console.table(tables.clicks);
  }
  if (tables.sequential.length > 0) {
    console.log(
      'Sequential previews (one at a time, one kept-alive connection, service and floor ' +
        'alternating): ms from the request to the last byte; ratio: median over the floor’s.',
    );
    console.table(tables.sequential);
  }
  if (tables.engine.length > 0) {
    console.log(
      'Evaluation: median cache.evaluated_in_ms of sequential previews (the engine inside the ' +
        'service) against the same evaluation in a loop in this process (the engine alone).',
    );
    console.table(tables.engine);
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(tables, null, 2));
}
