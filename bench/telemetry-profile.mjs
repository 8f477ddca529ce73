/**
 * `npm run bench:telemetry:profile` (issue 41): what metrics and traces cost a 1,000-question
 * preview, read by attribution rather than by comparing two services' CPU, whose
 * batch-to-batch noise (±10–15 %) is larger than the goals (bench/README.md, "Telemetry
 * cost", has the method and the figures).
 *
 *   npm run build && node bench/telemetry-profile.mjs        # off, metrics, tracing; 2 rounds
 *   node bench/telemetry-profile.mjs --variants metrics,tracing,tracing-none --rounds 3
 *
 * How: each variant's service runs alone, pinned to a core (--service-cpu 0; this process,
 * autocannon and the OTLP sink on --client-cpu 1), sampled (--sampler perf: Linux perf's
 * CPU-clock samples of every thread with call graphs, --frequency 1999 Hz,
 * telemetry-perf.mjs; --sampler v8: `--cpu-prof`, wall-clock, every --interval µs) and
 * with `--trace-gc` (telemetry-gc-mark.mjs preloaded: SIGUSR2 asks for a marked
 * collection). After --warmup seconds: a mark, --windows batches of --requests previews,
 * a mark; the samples are those of that window, the heap's figures those between the
 * marks. Each sample is telemetry's when the nearest JS frame outside Node's internals
 * belongs to telemetry (telemetry-attribution.mjs lists what does: OpenTelemetry,
 * prom-client, src/tracing, src/metrics…), so a wrapper's call back into the application
 * is not counted, and its calls into Buffer or crypto are. Telemetry's share of a
 * thread's (busy) samples times its CPU time (/proc schedstat) over the window is the CPU
 * telemetry took there; the main thread's extra allocation against the reference
 * variant, at the variant's own GC cost per byte (GC samples and V8's helper threads over
 * the bytes allocated), is what it adds to garbage collection. Both are read within one
 * process, so the noise between two services does not enter. The ratio estimate is
 * CPU / (CPU − telemetry's CPU − its GC), per round and pooled.
 *
 * Options: --variants off,metrics,tracing (any of telemetry.bench.mjs's, `name@<checkout>`
 * for another build); --rounds 2; --windows 5; --requests 60; --warmup 5; --sampler perf;
 * --frequency 1999; --interval 500;
 * --sizes 1000; --db sqlite; --top 12 (telemetry's costliest frames); --keep <dir>
 * (the profiles, else deleted); --json <file>; --no-pin.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { freePort } from './service-fixture.mjs';
import { flag, here, nodeArgs, option, root } from './http-options.mjs';
import { sizeModel } from './http-sizes.mjs';
import { batch, cpuByThread, fixture, startSink, startWarm } from './telemetry-run.mjs';
import { heapBetweenMarks, marks, tallyProfiles } from './telemetry-attribution.mjs';
import { PERF_NODE_ARGS, startPerf, tallyPerf } from './telemetry-perf.mjs';
import { costs, printReport } from './telemetry-profile-report.mjs';
import { variantOf } from './telemetry-variants.mjs';

const rounds = Number(option('rounds', 2));
const windows = Number(option('windows', 5));
const amount = Number(option('requests', 60));
const warmup = Number(option('warmup', 5));
const interval = Number(option('interval', 500));
const database = option('db', 'sqlite');
const sizeName = option('sizes', '1000');
const top = Number(option('top', 12));
const keep = option('keep', null);
const jsonOut = option('json', null);
const sampler = option('sampler', 'perf');
const frequency = Number(option('frequency', 1999));
const pinned = !flag('no-pin');
/** What one sample stands for, µs. */
const sampleUs = sampler === 'perf' ? 1e6 / frequency : interval;
const serviceCpu = pinned ? option('service-cpu', '0') : null;
const clientCpu = option('client-cpu', '1');
const variants = option('variants', 'off,metrics,tracing')
  .split(',')
  .filter(Boolean)
  .map((spec) => variantOf(spec, root));

const micros = () => Number(process.hrtime.bigint() / 1000n);
const rotated = (list, by) => list.map((_, i) => list[(i + by) % list.length]);
const threadMs = (after, before, names) =>
  names.reduce((sum, name) => sum + (after[name] ?? 0) - (before[name] ?? 0), 0) / 1e6;

const gcMark = pathToFileURL(join(here, 'telemetry-gc-mark.mjs')).href;

/**
 * Asks the service's main thread for a young-generation collection (telemetry-gc-mark.mjs)
 * and waits for its line: the marks before it, counted from 0.
 */
async function mark(service) {
  const before = marks(service.output());
  process.kill(service.pid, 'SIGUSR2');
  for (let waited = 0; marks(service.output()) === before; waited += 10) {
    if (waited > 10_000) throw new Error('the service printed no collection for SIGUSR2');
    await sleep(10);
  }
  return before;
}

/** One variant, alone: started with the profiler, warmed, measured over a window, stopped. */
async function measure(variant, at, round, frames) {
  const profileDir = keep
    ? join(keep, `${variant.spec.replace(/[^\w-]/g, '_')}-${round}`)
    : mkdtempSync(join(tmpdir(), 'telemetry-prof-'));
  mkdirSync(profileDir, { recursive: true });
  const profiler =
    sampler === 'perf'
      ? PERF_NODE_ARGS
      : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${interval}`];
  const args = [...nodeArgs, ...profiler, '--trace-gc', '--expose-gc', `--import=${gcMark}`];
  const service = await startWarm(variant, at, {
    port: at.port,
    dataDir: at.dataDir,
    cpu: serviceCpu,
    warmup,
    args,
  });
  let window;
  let perf = null;
  try {
    const marked = await mark(service);
    perf =
      sampler === 'perf'
        ? await startPerf(service.pid, join(profileDir, 'perf.data'), frequency)
        : null;
    const cpuBefore = cpuByThread(service.pid);
    const from = micros();
    let previews = 0;
    for (let w = 0; w < windows; w++)
      previews += (await batch(service, at.request, amount)).requests;
    const to = micros();
    const cpuAfter = cpuByThread(service.pid);
    await perf?.stop();
    await mark(service);
    const gc = heapBetweenMarks(service.output(), marked);
    const names = Object.keys(cpuAfter);
    window = {
      from,
      to,
      previews,
      gc,
      cpuMs: {
        main: threadMs(cpuAfter, cpuBefore, ['MainThread']),
        workers: threadMs(cpuAfter, cpuBefore, ['WorkerThread']),
        other: threadMs(
          cpuAfter,
          cpuBefore,
          names.filter((n) => n !== 'MainThread' && n !== 'WorkerThread'),
        ),
      },
    };
  } finally {
    await perf?.stop();
    await service.stop();
  }
  const samples =
    sampler === 'perf'
      ? await tallyPerf(join(profileDir, 'perf.data'), service.pid, frequency, frames)
      : tallyProfiles(profileDir, window.from, window.to, frames);
  // The JIT's symbol map perf read (--perf-basic-prof), one per process.
  if (sampler === 'perf') rmSync(`/tmp/perf-${service.pid}.map`, { force: true });
  if (!keep) rmSync(profileDir, { recursive: true, force: true });
  return { previews: window.previews, cpuMs: window.cpuMs, samples, heap: window.gc };
}

if (pinned)
  execFileSync('taskset', ['-a', '-cp', clientCpu, String(process.pid)], { stdio: 'ignore' });
const sink = await startSink();
const cleanups = [];
const started = Date.now();
const loads = [];
const runs = Object.fromEntries(variants.map((v) => [v.spec, []]));
const frames = Object.fromEntries(variants.map((v) => [v.spec, new Map()]));
try {
  const size = await sizeModel(sizeName);
  const made = await fixture(
    database,
    size,
    await freePort(),
    database === 'sqlite' ? 1 : 0,
    cleanups,
  );
  const at = { ...made, sink, port: await freePort(), dataDir: made.dataDirs[0] };
  for (let round = 0; round < rounds; round++)
    for (const i of rotated([...variants.keys()], round)) {
      loads.push(loadavg()[0]);
      const run = await measure(variants[i], at, round, frames[variants[i].spec]);
      runs[variants[i].spec].push(run);
      const cost = costs(run, sampleUs);
      console.error(
        `round ${round + 1}/${rounds} ${variants[i].spec} (load ${loads.at(-1).toFixed(2)}): ` +
          `CPU ${cost.cpuMs.toFixed(2)} ms/preview, tracing ${cost.tracingMs.toFixed(3)} ms, ` +
          `metrics ${cost.metricsMs.toFixed(3)} ms, heap ${(cost.allocatedBytes / 1e6).toFixed(2)} MB`,
      );
    }
  printReport({ variants, runs, frames, top, size: size.label, database, unit: sampleUs });
} finally {
  for (const cleanup of cleanups.reverse())
    await Promise.resolve()
      .then(cleanup)
      .catch(() => {});
  await sink.stop();
  console.log(
    `\nTelemetry cost by profile: ${root}, node ${process.version}, ${rounds} rounds of ` +
      `${windows} × ${amount} previews per variant, sampled by ${sampler === 'perf' ? `perf at ${frequency} Hz (CPU time)` : `V8 every ${interval} µs (wall clock)`}, ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s; load average (1 min) ` +
      `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  );
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ variants, runs }, null, 2));
}
