/**
 * `npm run bench:telemetry` (issue 41; also `npm run bench:http -- --telemetry`): what
 * metrics and traces cost a 1,000-question preview, read as a ratio with a confidence
 * interval and checked by an A/A control, on a shared 2-core machine. bench/README.md,
 * "Telemetry cost", has the method, the output and the figures.
 *
 *   npm run build && node bench/telemetry.bench.mjs           # SQLite, 1,000 questions
 *   node bench/telemetry.bench.mjs --rounds 24 --windows 8 --db postgres
 *   node bench/telemetry.bench.mjs --variants metrics,tracing,tracing@../main \
 *     --compare tracing/metrics,tracing/tracing@../main
 *
 * How: the services run pinned to one core (`taskset -c`, --service-cpu 0), this process
 * (autocannon and the OTLP sink) to the other (--client-cpu 1). A round starts every
 * variant afresh (same build, same database fixture: a tenant and the model uploaded
 * once, a copy per service on SQLite), in an order rotated each round, and loads each
 * for --warmup seconds (discarded: the version's load in the workers, the JIT); then
 * --windows cycles of one batch of --requests previews per variant, one service loaded at
 * a time, the order rotated each cycle; then all are stopped. A variant's figure for the
 * round is the CPU time of every thread of its service (/proc/<pid>/task/<tid>/schedstat)
 * from the first batch to 0.5 s after the last (so a deferred span export or GC counts),
 * over its requests; and its req/s over its batches. B/A is read from the rounds' paired
 * ratios: their 20 %-trimmed geometric mean and a 95 % bootstrap interval over the rounds
 * (telemetry-stats.mjs). The A/A control (metrics-again/metrics) must read within ±2 %.
 * --alone: each variant started, measured and stopped before the next starts (one
 * process at a time). --concurrent: a cycle's batches run at the same moment, the
 * services sharing the core (each sees the same contention).
 *
 * Variants (--variants; `name@<checkout>` runs that checkout's build): off
 * (METRICS_ENABLED=false), metrics (the defaults), metrics-again (the same: the A/A
 * control), tracing (metrics on, traces sampled at 10 %, parentbased_traceidratio,
 * OTLP/HTTP protobuf to the sink), tracing-all (100 %), tracing-none (0 %: the SDK's
 * presence alone). Comparisons (--compare B/A,…; by default each of these whose variants
 * run): metrics-again/metrics (within ±2 %), metrics/off (≤ 1.02), tracing/metrics
 * (≤ 1.05), tracing-all/metrics and tracing-none/metrics (no goal).
 *
 * Other options: --sizes 1000 (as bench:http); --db sqlite (or postgres, --pg <admin
 * url>); --connections 4; --node-args "<flags>" (`--cpu-prof --cpu-prof-dir=prof`: a
 * profile per start); --env KEY=VALUE,…; --no-pin; --json <file> (every round's and
 * batch's figures).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './service-fixture.mjs';
import { connections, flag, nodeArgs, option, root } from './http-options.mjs';
import { sizeModel } from './http-sizes.mjs';
import { batch, cpuByThread, fixture, startSink, startWarm } from './telemetry-run.mjs';
import { median, pairedRatio, verdict } from './telemetry-stats.mjs';
import { variantOf } from './telemetry-variants.mjs';

const rounds = Number(option('rounds', 10));
const windows = Number(option('windows', 6));
const amount = Number(option('requests', 40));
const warmup = Number(option('warmup', 5));
const alone = flag('alone');
const concurrent = flag('concurrent');
const databases = option('db', 'sqlite').split(',');
const sizes = option('sizes', '1000').split(',').filter(Boolean);
const pinned = !flag('no-pin');
const serviceCpu = pinned ? option('service-cpu', '0') : null;
const clientCpu = option('client-cpu', '1');
const jsonOut = option('json', null);
if (option('duration', null) !== null)
  console.error('--duration is not used here: batches count previews (--requests, --windows)');
/** After the last batch: the work a service defers (GC, a span export) is counted too. */
const SETTLE_MS = 500;

/** B/A comparisons and their goals: `within` for the A/A control, `atMost` for a cost. */
const GOALS = {
  'metrics-again/metrics': { within: 0.02, text: 'A/A: within ±2 %' },
  'metrics/off': { atMost: 1.02, text: '≤ 1.02×' },
  'tracing/metrics': { atMost: 1.05, text: '≤ 1.05×' },
  'tracing-all/metrics': { text: 'none' },
  'tracing-none/metrics': { text: 'none' },
};

const variants = option('variants', 'off,metrics,metrics-again,tracing')
  .split(',')
  .filter(Boolean)
  .map((spec) => variantOf(spec, root));

/** `B/A` into B and A; either may be `name@<checkout>`, and a checkout's path holds slashes. */
function splitPair(pair) {
  const specs = new Set(variants.map((v) => v.spec));
  for (let i = pair.indexOf('/'); i >= 0; i = pair.indexOf('/', i + 1))
    if (specs.has(pair.slice(0, i)) && specs.has(pair.slice(i + 1)))
      return [pair.slice(0, i), pair.slice(i + 1)];
  throw new Error(`--compare ${pair}: not two of the variants run (${[...specs].join(', ')})`);
}

const comparisons = (
  option('compare', null)?.split(',') ??
  Object.keys(GOALS).filter((pair) =>
    pair.split('/').every((name) => variants.some((v) => v.spec === name)),
  )
).map((pair) => {
  const [b, a] = splitPair(pair);
  return { b, a, goal: GOALS[pair] ?? GOALS[`${b.split('@')[0]}/${a.split('@')[0]}`] ?? {} };
});

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const cpuOf = (runs) => runs.map((r) => r.cpuMs);
const rpsOf = (runs) => runs.map((r) => r.rps);
const rotated = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

/** What a service did from `cpuBefore` on, over its batches: one round's figures. */
function figures(service, cpuBefore, batches) {
  const requests = batches.reduce((sum, b) => sum + b.requests, 0);
  const seconds = batches.reduce((sum, b) => sum + b.seconds, 0);
  const cpu = cpuByThread(service.pid);
  const ms = (names) =>
    names.reduce((sum, name) => sum + (cpu[name] ?? 0) - (cpuBefore[name] ?? 0), 0) /
    1e6 /
    requests;
  const threads = Object.keys(cpu);
  return {
    cpuMs: ms(threads),
    mainMs: ms(['MainThread']),
    workersMs: ms(['WorkerThread']),
    otherMs: ms(threads.filter((name) => name !== 'MainThread' && name !== 'WorkerThread')),
    rps: requests / seconds,
    p50: median(batches.map((b) => b.p50)),
    p99: median(batches.map((b) => b.p99)),
    requests,
    batchCpuMs: batches.map((b) => b.cpuMs),
  };
}

/**
 * One round, every variant beside the others: each started afresh (pinned to the same
 * core, a port and a copy of the fixture of its own) and warmed up, then `windows` cycles
 * of one batch each, the order rotated every cycle, then all stopped. A service waits idle
 * while the others are loaded; its CPU is read over the whole cycle, so what it defers
 * (a span export, GC) is counted.
 */
async function roundTogether(at, round) {
  const services = [];
  try {
    // Started in the round's order too: no variant is always the first or the last.
    for (const i of rotated([...variants.keys()], round))
      services[i] = await startWarm(variants[i], at, {
        port: at.ports[i],
        dataDir: at.dataDirs[i],
        cpu: serviceCpu,
        warmup,
      });
    const cpuBefore = services.map((s) => cpuByThread(s.pid));
    const batches = variants.map(() => []);
    for (let cycle = 0; cycle < windows; cycle++)
      if (concurrent) {
        const done = await Promise.all(services.map((s) => batch(s, at.request, amount)));
        done.forEach((b, i) => batches[i].push(b));
      } else
        for (const i of rotated([...variants.keys()], round + cycle))
          batches[i].push(await batch(services[i], at.request, amount));
    await sleep(SETTLE_MS);
    return services.map((service, i) => figures(service, cpuBefore[i], batches[i]));
  } finally {
    for (const service of services) await service?.stop();
  }
}

/** One round, one service at a time: each variant started, warmed, measured, stopped. */
async function roundAlone(at, round) {
  const results = [];
  for (const i of rotated([...variants.keys()], round)) {
    const service = await startWarm(variants[i], at, {
      port: at.ports[0],
      dataDir: at.dataDirs[0],
      cpu: serviceCpu,
      warmup,
    });
    try {
      const cpuBefore = cpuByThread(service.pid);
      const batches = [];
      for (let w = 0; w < windows; w++) batches.push(await batch(service, at.request, amount));
      await sleep(SETTLE_MS);
      results[i] = figures(service, cpuBefore, batches);
    } finally {
      await service.stop();
    }
  }
  return results;
}

async function benchOne(database, sizeName, sink, report) {
  const cleanups = [];
  try {
    const size = await sizeModel(sizeName);
    // The fixture's own port and directory are used by no variant: every variant alike.
    const ports = [];
    for (const _ of variants) ports.push(await freePort());
    const copies = database !== 'sqlite' ? 0 : alone ? 1 : variants.length;
    const made = await fixture(database, size, await freePort(), copies, cleanups);
    const at = { ports, sink, ...made };
    if (at.dataDirs.length < variants.length) at.dataDirs = variants.map(() => made.dataDirs[0]);
    const runs = Object.fromEntries(variants.map((v) => [v.spec, []]));
    const loads = [];
    for (let round = 0; round < rounds; round++) {
      loads.push(loadavg()[0]);
      const results = await (alone ? roundAlone : roundTogether)(at, round);
      variants.forEach((v, i) => runs[v.spec].push(results[i]));
      const cpu = variants.map((v, i) => `${v.spec} ${fixed(results[i].cpuMs)}`).join(', ');
      console.error(
        `round ${round + 1}/${rounds} (load ${fixed(loads.at(-1))}): CPU ms/req ${cpu}`,
      );
    }
    report.push({ database, size: size.label, runs, loads });
  } finally {
    for (const cleanup of cleanups.reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch(() => {});
  }
}

function print({ database, size, runs, loads }) {
  console.log(
    `\n${database}, preview of ${size} (full view): ${rounds} rounds, every variant started ` +
      `afresh each round${alone ? ', one at a time' : ', beside the others'}, ${warmup} s warm-up, ` +
      `then ${windows} batches of ${amount} previews${alone ? '' : ' in rotation'}, ` +
      `${connections} connections; load average (1 min) ${fixed(Math.min(...loads), 1)}–${fixed(Math.max(...loads), 1)}`,
  );
  console.table(
    variants.map((v) => ({
      variant: v.label,
      'req/s': fixed(median(runs[v.spec].map((r) => r.rps)), 1),
      'CPU ms/req': fixed(median(runs[v.spec].map((r) => r.cpuMs))),
      'main thread': fixed(median(runs[v.spec].map((r) => r.mainMs))),
      'engine workers': fixed(median(runs[v.spec].map((r) => r.workersMs))),
      'other threads': fixed(median(runs[v.spec].map((r) => r.otherMs))),
      'p50 ms': fixed(median(runs[v.spec].map((r) => r.p50)), 1),
      'p99 ms': fixed(median(runs[v.spec].map((r) => r.p99)), 1),
    })),
  );
  // Time per request: req/s inverted.
  const measures = {
    'CPU/req': (b, a) => pairedRatio(cpuOf(runs[b]), cpuOf(runs[a])),
    'time/req': (b, a) => pairedRatio(rpsOf(runs[a]), rpsOf(runs[b])),
  };
  const control = comparisons.find((c) => c.goal.within !== undefined);
  const rows = [];
  for (const [by, ratioOf] of Object.entries(measures)) {
    // The goals are judged only when the A/A control reads within its tolerance.
    const noisy = control && verdict(ratioOf(control.b, control.a), control.goal) !== 'within';
    for (const { b, a, goal } of comparisons) {
      const ratio = ratioOf(b, a);
      const judged = goal.text && goal.text !== 'none' ? verdict(ratio, goal) : '';
      rows.push({
        'B / A': `${b} / ${a}`,
        by,
        ratio: fixed(ratio.ratio, 3),
        '95 % CI': `${fixed(ratio.low, 3)}–${fixed(ratio.high, 3)}`,
        goal: goal.text ?? '',
        verdict: noisy && goal !== control.goal && judged ? `${judged} (A/A failed)` : judged,
      });
    }
  }
  console.table(rows);
}

if (pinned) {
  // This process (the load and the sink), and every thread it has, on the client's core.
  execFileSync('taskset', ['-a', '-cp', clientCpu, String(process.pid)], { stdio: 'ignore' });
}
const sink = await startSink();
const report = [];
const started = Date.now();
const loadBefore = loadavg();
try {
  for (const database of databases)
    for (const size of sizes) await benchOne(database, size, sink, report);
} finally {
  await sink.stop();
  console.log(
    `\nTelemetry cost: ${root}, node ${process.version}, ` +
      (pinned ? `service on CPU ${serviceCpu}, load and sink on CPU ${clientCpu}` : 'not pinned') +
      `, ${((Date.now() - started) / 1000).toFixed(0)} s; load average before ` +
      `${loadBefore.map((l) => l.toFixed(1)).join(' ')}, after ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}` +
      (nodeArgs.length ? `; service node ${nodeArgs.join(' ')}` : ''),
  );
  console.log(
    'Per variant: medians over the rounds. B / A: the 20 %-trimmed geometric mean of the ' +
      'rounds’ B/A ratios (B and A measured in the same round), with a 95 % bootstrap ' +
      'interval; CPU/req: every thread of the service; time/req: req/s inverted. Verdict: met ' +
      '(the interval at or below the goal), missed (wholly above), not shown (straddles it).',
  );
  report.forEach(print);
  if (variants.some((v) => v.spec.startsWith('tracing')) && sink.received() === 0)
    console.log('No span reached the sink: tracing did not run.');
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ variants, comparisons, report }, null, 2));
}
