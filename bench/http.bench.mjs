/**
 * HTTP benchmark (not a test): the built service (dist/src/main.js, its own process)
 * beside bare `node:http` floors doing the same work (bench/http-floor.mjs), measured in
 * the same run with autocannon, on SQLite and on PostgreSQL. What counts are the ratios
 * of one run, not the absolute numbers (the machine is shared).
 *
 *   npm run bench:http                      # builds dist/, then everything (~5 minutes)
 *   npm run bench:http -- --quick           # SQLite, window + 1,000 questions, short runs
 *   node bench/http.bench.mjs --db sqlite --sizes window,1000 --duration 3 --rounds 1
 *   node bench/http.bench.mjs --root /path/to/other/checkout   # its dist/ (a "before")
 *
 * Options: --db sqlite,postgres; --pg <url> (an admin URL; default $BENCH_PG_URL or
 * postgres://postgres@127.0.0.1:5432/postgres: a fresh database is created there and
 * dropped); --sizes window,1000,5000; --duration <s per measurement> (5); --rounds <n>
 * (2: floor and service alternate, to even out a noisy machine); --connections <n> (4);
 * --node-args "<flags for the service's node>" (default $BENCH_NODE_ARGS, else the
 * NODE_OPTIONS of the checkout's Dockerfile, as the image runs it);
 * --env KEY=VALUE,… (more of the service's environment); --json <file> (both tables, for comparing runs); --detail adds the compact view without
 * compression and the full view with gzip; --model <model.json|yaml> --answers <answers.json>
 * adds that model (e.g. a real one) to the sizes, previewed with those answers; --no-default
 * leaves out GET /v1/carts/default; --cart <size> fills the cart of GET /v1/carts/{id}
 * with lines of that model, --no-cart leaves it out (a checkout without stored snapshots); --no-engine leaves out the evaluation table;
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
 * of a stored line (reconfigured with the same answers) against the same preview.
 * For every service run, its longest event-loop delay (`loop max ms`, from its /metrics).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  call,
  data,
  pgDatabase,
  startChild,
  startService,
  uploadModel,
} from './service-fixture.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
const quick = flag('quick');
const detail = flag('detail');
const root = resolve(option('root', repo));
const databases = option('db', quick ? 'sqlite' : 'sqlite,postgres').split(',');
const customModel = option('model', undefined);
const customAnswers = option('answers', undefined);
const sizes = [
  ...option('sizes', quick ? 'window,1000' : 'window,1000,5000')
    .split(',')
    .filter(Boolean),
  ...(customModel === undefined ? [] : ['custom']),
];
// GET /v1/carts/{id}: its lines are of this size's model ('' or --no-cart: not measured).
const cartSize = flag('no-cart')
  ? ''
  : option('cart', sizes.includes('window') ? 'window' : sizes[0]);
const duration = Number(option('duration', quick ? 2 : 5));
const rounds = Number(option('rounds', quick ? 1 : 2));
const connections = Number(option('connections', 4));
const pgAdminUrl = option(
  'pg',
  process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);
/** The production image's NODE_OPTIONS (GC flags), so that the service runs as deployed. */
function imageNodeOptions() {
  try {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    return /^ENV NODE_OPTIONS="?([^"\n]*)"?$/m.exec(dockerfile)?.[1] ?? '';
  } catch {
    return '';
  }
}
const nodeArgs = option('node-args', process.env.BENCH_NODE_ARGS ?? imageNodeOptions())
  .split(' ')
  .filter(Boolean);
/** --env KEY=VALUE,…: more of the service's environment (e.g. a larger compiled-model cache). */
const serviceEnv = Object.fromEntries(
  option('env', '')
    .split(',')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const jsonOut = option('json', null);
const baselineRoot = option('baseline', null) === null ? null : resolve(option('baseline'));

const { createRequire } = await import('node:module');
const requireHere = createRequire(join(repo, 'package.json'));
const autocannon = requireHere('autocannon');
const { generateModel } = await import(pathToFileURL(join(repo, 'tools', 'gen-model.mjs')).href);

const JWT = {
  secret: BENCH_SERVICE_ENV.JWT_SECRET,
  issuer: 'configurator',
  audience: 'configurator-api',
};
const WINDOW_ANSWERS = {
  width: { values: [1200] },
  height: { values: [1000] },
  color: { values: ['white'] },
};

const cleanups = [];

const startFloor = async (config) => {
  const floor = await startChild(
    root,
    [join(here, 'http-floor.mjs'), JSON.stringify({ root, ...config })],
    {},
    async (output) => /listening \d+/.test(output()),
  );
  const port = /listening (\d+)/.exec(floor.output())[1];
  return { ...floor, base: `http://127.0.0.1:${port}` };
};

/**
 * CPU seconds a process has used, all its threads (zlib's pool included), from
 * /proc/<pid>/stat; NaN where there is no /proc. Unlike req/s it hardly moves when other
 * processes share the machine. The database server's own CPU is not in it.
 */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100;

/**
 * The service's longest event-loop delay (ms) since the last scrape of its /metrics:
 * prom-client's `nodejs_eventloop_lag_max_seconds` (perf_hooks.monitorEventLoopDelay,
 * 10 ms resolution), whose histogram each scrape reads and resets.
 */
async function loopMaxMs(base) {
  const res = await fetch(`${base}/metrics`);
  const text = await res.text();
  const line = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  return line ? 1000 * Number(line[1]) : NaN;
}

/**
 * Load from autocannon; requests per second over the whole run, p50/p99 in ms, and for
 * the service (`metrics`) its longest event-loop delay during the run.
 */
async function load(base, request, pid, metrics) {
  if (metrics) await loopMaxMs(base);
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({
    url: `${base}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration,
    timeout: 60,
  });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0)
    throw new Error(
      `${request.method} ${request.path}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  return {
    requests: result.requests.total,
    seconds: result.duration,
    cpu: cpuSeconds(pid) - cpuBefore,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
    loopMaxMs: metrics ? await loopMaxMs(base) : NaN,
  };
}

/** Several targets measured in alternation, `rounds` times; rates over all rounds. */
async function measure(targets) {
  for (const target of targets) {
    await target.before?.();
    for (let i = 0; i < 5; i++) {
      const res = await call(target.base, target.request.method, target.request.path, {
        body: target.request.body,
        headers: target.request.headers,
      });
      if (res.status >= 300)
        throw new Error(`${target.name}: ${res.status} ${res.text.slice(0, 300)}`);
    }
  }
  const runs = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) {
      await target.before?.();
      runs[i].push(await load(target.base, target.request, target.pid, target.name !== 'floor'));
    }
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  return runs.map((list) => ({
    rps: list.reduce((sum, r) => sum + r.requests, 0) / list.reduce((sum, r) => sum + r.seconds, 0),
    cpuMs:
      (1000 * list.reduce((sum, r) => sum + r.cpu, 0)) /
      list.reduce((sum, r) => sum + r.requests, 0),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    bytes: median(list.map((r) => r.bytes)),
    loopMaxMs: Math.max(...list.map((r) => r.loopMaxMs)),
  }));
}

const NOT_SERVED = { rps: NaN, p50: NaN, p99: NaN, cpuMs: NaN, bytes: NaN, loopMaxMs: NaN };
const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const rows = [];
const engineRows = [];
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** The checkout's engine, loaded into this process (its dist/, as the service runs it). */
let engine;
async function loadEngine() {
  engine ??= await import(pathToFileURL(join(root, 'dist', 'src', 'engine', 'index.js')).href);
  return engine;
}

/** Evaluations per side; the first quarter (service) and half (alone) only warm up. */
const ENGINE_SAMPLES = 40;

/**
 * The engine inside the service (median `cache.evaluated_in_ms` of sequential previews)
 * against the engine alone in this process, in a loop on the same model and answers.
 */
async function compareEngine(database, label, source, format, body, call) {
  const inService = [];
  for (let i = 0; i < ENGINE_SAMPLES; i++) {
    const answer = await call();
    if (i >= ENGINE_SAMPLES / 4) inService.push(JSON.parse(answer.text).data.cache.evaluated_in_ms);
  }
  const { readModelSource, compileDocument, evaluate, DEFAULT_ENGINE_LIMITS } = await loadEngine();
  const read = await readModelSource(Buffer.from(source), format, DEFAULT_ENGINE_LIMITS);
  const compiled = compileDocument(read.value.document, DEFAULT_ENGINE_LIMITS);
  if (!compiled.ok) throw new Error(`engine alone: ${label} does not compile`);
  const alone = [];
  for (let i = 0; i < ENGINE_SAMPLES * 2; i++) {
    const { questions } = JSON.parse(body);
    const request = { modelId: 1, versionNumber: 1, questions, languageCode: null };
    const startedAt = performance.now();
    evaluate(compiled.model, request);
    if (i >= ENGINE_SAMPLES) alone.push(performance.now() - startedAt);
  }
  const service = median(inService);
  const own = median(alone);
  engineRows.push({
    database,
    model: label,
    'in the service, ms': service.toFixed(2),
    'engine alone, ms': own.toFixed(2),
    ratio: (service / own).toFixed(2),
  });
}
/**
 * One line of the table. `against`: the stats this target is compared with, `by`:
 * 'time' (this target's time per request over the other's: req/s inverted, and CPU per
 * request) or 'throughput' (this target's req/s over the other's, CPU inverted).
 */
function row(database, scenario, target, stats, against, by, goal) {
  const time = by === 'time';
  rows.push({
    database,
    scenario,
    target,
    'req/s': fixed(stats.rps),
    'p50 ms': fixed(stats.p50),
    'p99 ms': fixed(stats.p99),
    'CPU ms/req': fixed(stats.cpuMs, 2),
    'kB/answer': fixed(stats.bytes / 1024),
    'loop max ms': Number.isFinite(stats.loopMaxMs) ? fixed(stats.loopMaxMs, 0) : '',
    ratio: against ? fixed(time ? against.rps / stats.rps : stats.rps / against.rps, 2) : '',
    'CPU ratio': against
      ? fixed(time ? stats.cpuMs / against.cpuMs : against.cpuMs / stats.cpuMs, 2)
      : '',
    goal: goal ?? '',
  });
}

/**
 * The preview's floor (issue #27): a node:http server evaluating the same model (compiled
 * once at its start) with the checkout's engine, answering the same bytes.
 */
async function startEvaluateFloor(model, size, modelId) {
  const modelFile = join(cleanupDir(), `model-${size}`);
  writeFileSync(modelFile, model);
  return startFloor({
    mode: 'evaluate',
    modelFile,
    format: model.trimStart().startsWith('{') ? 'json' : 'yaml',
    modelId,
    versionNumber: 1,
    message: 'Configuration evaluated',
  });
}

let scratch;
function cleanupDir() {
  if (scratch === undefined) {
    scratch = mkdtempSync(join(tmpdir(), 'http-bench-floor-'));
    const dir = scratch;
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  }
  return scratch;
}

/**
 * Throws unless a floor answers what the service does (parsed; a line's `cache` timings
 * left out, they differ from one evaluation to the next).
 */
async function sameAnswer(serviceBase, floorBase, request, what) {
  const [fromService, fromFloor] = await Promise.all(
    [serviceBase, floorBase].map((at) =>
      call(at, request.method, request.path, { body: request.body, headers: request.headers }),
    ),
  );
  const parsed = (text) => {
    const value = JSON.parse(text);
    if (value.data && typeof value.data === 'object') delete value.data.cache;
    return value;
  };
  if (!isDeepStrictEqual(parsed(fromService.text), parsed(fromFloor.text)))
    throw new Error(
      `${what}: the floor answers otherwise: ${fromService.text.slice(0, 600)} / ${fromFloor.text.slice(0, 600)}`,
    );
}

/** Lines in the cart of `GET /v1/carts/{id}` (issue #27: "with 10 stored lines"). */
const CART_LINES = 10;

/**
 * GET /v1/carts/{id} with ten stored lines of one model, against a node:http floor that
 * checks the token as the service does and reads the same rows from the same database
 * (better-sqlite3 on the service's SQLite file, or pg), inflating the stored snapshots.
 */
async function benchCartPage(database, size, { base, pid, body, json, floors }) {
  const { dataDir, pg, token, newDefaultCart } = current;
  await newDefaultCart();
  let cartId;
  for (let i = 0; i < CART_LINES; i++) {
    const added = await call(base, 'POST', '/v1/carts', { body, headers: json });
    if (added.status !== 201) throw new Error(`add: ${added.status} ${added.text.slice(0, 300)}`);
    cartId = JSON.parse(added.text).data.cart_id;
  }
  const cartFloor = await startFloor({
    mode: 'cart',
    jwtSecret: JWT.secret,
    jwtIssuer: JWT.issuer,
    jwtAudience: JWT.audience,
    ...(pg ? { databaseUrl: pg.url } : { sqliteFile: join(dataDir, 'configurator.sqlite') }),
  });
  floors.push(cartFloor);
  const get = {
    method: 'GET',
    path: `/v1/carts/${cartId}`,
    headers: { Authorization: `Bearer ${token}` },
  };
  await sameAnswer(base, cartFloor.base, get, `GET /v1/carts/{id} ${size}`);
  const [floorStats, serviceStats] = await measure([
    { name: 'floor', base: cartFloor.base, pid: cartFloor.child.pid, request: get },
    { name: 'service', base, pid, request: get },
  ]);
  const scenario = `GET /v1/carts/{id}, ${CART_LINES} lines of ${size === 'window' ? 'window.yaml' : `${size} questions`}`;
  row(database, scenario, 'node:http read floor', floorStats);
  row(database, scenario, 'service', serviceStats, floorStats, 'throughput', '≥ 0.50');
  await cartFloor.stop();
}

/** A checkout's built service on a database of its own (a fresh directory or PG database). */
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

/** The database being measured: what benchCartPage needs of it. */
let current;

async function benchDatabase(database) {
  const { service, dataDir, pg } = await startBenchService(root, database);
  const floors = [];
  let baseline = null;
  try {
    baseline = await startBaseline(database);
    const base = service.base;
    const pid = service.child.pid;
    const { token, company, supplier } = await benchTenant(base);
    const auth = { Authorization: `Bearer ${token}` };
    const newDefaultCart = () =>
      data(base, 'POST', '/v1/carts/new', {
        token,
        body: JSON.stringify({ reference: `bench ${Date.now()}`, default: true }),
      });
    await newDefaultCart();
    current = { dataDir, pg, token, newDefaultCart };

    // --no-default: previews only (e.g. against a checkout whose schema the floor does not know).
    if (!flag('no-default')) {
      // GET /v1/carts/default beside the floor doing the same check and reads.
      const defaultFloor = await startFloor({
        mode: 'default',
        jwtSecret: JWT.secret,
        jwtIssuer: JWT.issuer,
        jwtAudience: JWT.audience,
        ...(pg ? { databaseUrl: pg.url } : { sqliteFile: join(dataDir, 'configurator.sqlite') }),
      });
      floors.push(defaultFloor);
      const getDefault = { method: 'GET', path: '/v1/carts/default', headers: auth };
      const [fromService, fromFloor] = await Promise.all(
        [base, defaultFloor.base].map((at) => call(at, 'GET', getDefault.path, { token })),
      );
      if (!isDeepStrictEqual(JSON.parse(fromService.text), JSON.parse(fromFloor.text)))
        throw new Error(`the floor answers otherwise: ${fromService.text} / ${fromFloor.text}`);
      const [floorGet, serviceGet] = await measure([
        {
          name: 'floor',
          base: defaultFloor.base,
          pid: defaultFloor.child.pid,
          request: getDefault,
        },
        { name: 'service', base, pid, request: getDefault },
      ]);
      row(database, 'GET /v1/carts/default', 'node:http floor', floorGet);
      row(
        database,
        'GET /v1/carts/default',
        'service',
        serviceGet,
        floorGet,
        'throughput',
        '≥ 0.40',
      );
    }

    for (const size of sizes) {
      let model;
      let answers;
      if (size === 'window') {
        model = readFileSync(join(repo, 'examples', 'window.yaml'), 'utf8');
        answers = WINDOW_ANSWERS;
      } else if (size === 'custom') {
        model = readFileSync(resolve(customModel), 'utf8');
        answers = JSON.parse(readFileSync(resolve(customAnswers), 'utf8'));
      } else {
        const generated = generateModel(Number(size));
        generated.model.general = { ...generated.model.general, code: `bench-${size}` };
        model = JSON.stringify(generated.model);
        answers = generated.answers;
      }
      const yaml = size === 'window' || (size === 'custom' && /\.ya?ml$/.test(customModel));
      const previewOf = async (at, tenant) => {
        const modelId = await uploadModel(at, tenant.token, tenant.supplier.id, model, yaml);
        const headers = {
          Authorization: `Bearer ${tenant.token}`,
          'Content-Type': 'application/json',
        };
        const body = JSON.stringify({
          model_id: modelId,
          company_id: tenant.company.id,
          questions: answers,
        });
        return { method: 'POST', path: '/v1/carts/preview', headers, body };
      };
      const preview = await previewOf(base, { token, company, supplier });
      const { body, headers: json } = preview;
      const baselinePreview = baseline && (await previewOf(baseline.service.base, baseline.tenant));
      const compactGzip = {
        ...preview,
        path: '/v1/carts/preview?view=compact',
        headers: { ...json, 'Accept-Encoding': 'gzip' },
      };
      const post = { method: 'POST', path: '/v1/carts', headers: json, body };
      // PUT (issue #29): one stored line reconfigured with the same answers, again and again.
      const added = await call(base, 'POST', '/v1/carts', { body, headers: json });
      if (added.status !== 201)
        throw new Error(`add ${size}: ${added.status} ${added.text.slice(0, 300)}`);
      const stored = JSON.parse(added.text).data;
      const put = {
        method: 'PUT',
        path: `/v1/carts/${stored.cart_id}/lines/${stored.id}`,
        headers: json,
        body: JSON.stringify({ questions: answers }),
      };
      // --detail: where the compact + gzip difference comes from.
      const details = detail
        ? [
            { name: 'compact', request: { ...preview, path: compactGzip.path } },
            { name: 'full + gzip', request: { ...preview, headers: compactGzip.headers } },
          ]
        : [];

      const answer = await call(base, 'POST', preview.path, { body, headers: json });
      if (answer.status !== 200 || !JSON.parse(answer.text).data.valid)
        throw new Error(`preview ${size}: ${answer.status} ${answer.text.slice(0, 300)}`);
      const answerFile = join(dataDir, `preview-${size}.json`);
      writeFileSync(answerFile, answer.text);
      const sendFloor = await startFloor({ mode: 'send', answerFile });
      floors.push(sendFloor);
      const evaluateFloor = await startEvaluateFloor(model, size, JSON.parse(body).model_id);
      floors.push(evaluateFloor);
      await sameAnswer(base, evaluateFloor.base, preview, `preview ${size}`);
      const compact = await call(base, 'POST', compactGzip.path, {
        body,
        headers: compactGzip.headers,
      });
      const hasCompact =
        compact.status === 200 &&
        compact.headers.get('content-encoding') === 'gzip' &&
        JSON.parse(compact.text).data.questions.every((q) => q.label === undefined);

      const label =
        size === 'window'
          ? 'window.yaml'
          : size === 'custom'
            ? (customModel.split('/').pop() ?? customModel)
            : `${size} questions`;
      const baselineTarget = baseline && {
        name: 'baseline',
        base: baseline.service.base,
        pid: baseline.service.child.pid,
        request: baselinePreview,
      };
      if (size === cartSize) await benchCartPage(database, size, { base, pid, body, json, floors });
      const targets = [
        { name: 'floor', base: sendFloor.base, pid: sendFloor.child.pid, request: preview },
        {
          name: 'evaluate floor',
          base: evaluateFloor.base,
          pid: evaluateFloor.child.pid,
          request: preview,
        },
        { name: 'preview', base, pid, request: preview },
        ...(baselineTarget ? [baselineTarget] : []),
        ...(hasCompact ? [{ name: 'compact + gzip', base, pid, request: compactGzip }] : []),
        ...(hasCompact ? details.map((one) => ({ ...one, base, pid })) : []),
        { name: 'post', base, pid, request: post, before: newDefaultCart },
        { name: 'put', base, pid, request: put },
      ];
      const stats = await measure(targets);
      const statsOf = (name) => stats[targets.findIndex((target) => target.name === name)];
      const [floorStats, evaluateStats, previewStats, baselineStats, compactStats, postStats] = [
        'floor',
        'evaluate floor',
        'preview',
        'baseline',
        'compact + gzip',
        'post',
      ].map(statsOf);
      const scenario = `preview ${label}`;
      row(database, scenario, 'node:http evaluate floor', evaluateStats);
      row(database, scenario, 'node:http send floor', floorStats);
      row(
        database,
        scenario,
        'service, full view (vs the evaluate floor)',
        previewStats,
        evaluateStats,
        'time',
        '≤ 1.3',
      );
      row(
        database,
        scenario,
        'service, full view (vs the send floor)',
        previewStats,
        floorStats,
        'time',
      );
      if (baselineStats)
        row(database, scenario, 'baseline, full view', baselineStats, floorStats, 'time');
      if (hasCompact)
        row(database, scenario, 'compact + gzip', compactStats, previewStats, 'time', '≤ 0.5');
      if (hasCompact && baselineStats)
        row(
          database,
          scenario,
          'compact + gzip (vs the baseline)',
          compactStats,
          baselineStats,
          'time',
          '≤ 0.5',
        );
      if (hasCompact)
        for (const one of details)
          row(database, scenario, one.name, statsOf(one.name), previewStats, 'time');
      else row(database, scenario, 'compact + gzip', NOT_SERVED, undefined, 'time', 'not served');
      const posts = `POST /v1/carts ${label}`;
      row(database, posts, 'service (vs the preview)', postStats, previewStats, 'time', '≤ 1.3');
      row(database, posts, 'service (vs the send floor)', postStats, floorStats, 'time');
      const puts = `PUT /v1/carts/{cart_id}/lines/{line_id} ${label}`;
      row(
        database,
        puts,
        'service (vs the preview)',
        statsOf('put'),
        previewStats,
        'time',
        '≤ 1.3',
      );
      await sendFloor.stop();
      await evaluateFloor.stop();
      if (!flag('no-engine')) {
        const format = model.trimStart().startsWith('{') ? 'json' : 'yaml';
        await compareEngine(database, label, model, format, body, () =>
          call(base, 'POST', preview.path, { body, headers: json }),
        );
      }
    }
  } finally {
    for (const floor of floors) await floor.stop();
    await baseline?.service.stop();
    await service.stop();
  }
}

const started = Date.now();
try {
  for (const database of databases) await benchDatabase(database);
} finally {
  for (const cleanup of cleanups.reverse())
    await Promise.resolve()
      .then(cleanup)
      .catch(() => {});
}
console.log(
  `\nHTTP benchmark: ${root}, node ${process.version}, ${connections} connections, ` +
    `${rounds} × ${duration} s per target, ${((Date.now() - started) / 1000).toFixed(0)} s in all` +
    (nodeArgs.length ? `, service node ${nodeArgs.join(' ')}` : ''),
);
console.log(
  'ratio: req/s of the same run; for the service against a floor or a preview, its time per ' +
    'request over theirs (req/s inverted); for GET /v1/carts/default and /v1/carts/{id}, its throughput over the ' +
    'floor’s (the goal column). CPU ratio: the same from the CPU each process used per request ' +
    '(/proc; all threads; not the database server), which other load on the machine hardly moves. ' +
    'loop max ms: the service’s longest event-loop delay during the load (its /metrics; ' +
    '10 ms resolution; goal ≤ 50).',
);
console.table(rows);
if (engineRows.length > 0) {
  console.log(
    'Evaluation: median cache.evaluated_in_ms of sequential previews (the engine inside the ' +
      'service) against the same evaluation in a loop in this process (the engine alone).',
  );
  console.table(engineRows);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ rows, engine: engineRows }, null, 2));
