/**
 * telemetry-profile.mjs's figures: what a measured window's samples, CPU times and heap
 * totals say per preview, the cost of one variant over another, and the tables.
 */

const TALLY_KEYS = ['idle', 'gc', 'program', 'tracing', 'metrics', 'other'];
const busyOf = (tally) => TALLY_KEYS.filter((k) => k !== 'idle').reduce((s, k) => s + tally[k], 0);

/** Runs of one variant pooled (their counts added): one run's shape. */
function pooled(runs) {
  const sum = (pick) => runs.reduce((s, run) => s + pick(run), 0);
  const tally = (thread) =>
    Object.fromEntries(
      [...TALLY_KEYS, 'selfTracing', 'selfMetrics'].map((k) => [
        k,
        sum((r) => r.samples[thread][k]),
      ]),
    );
  return {
    previews: sum((r) => r.previews),
    cpuMs: {
      main: sum((r) => r.cpuMs.main),
      workers: sum((r) => r.cpuMs.workers),
      other: sum((r) => r.cpuMs.other),
    },
    samples: { main: tally('main'), workers: tally('workers') },
    heap: {
      main: {
        allocated: sum((r) => r.heap.main.allocated),
        pause: sum((r) => r.heap.main.pause),
        majors: sum((r) => r.heap.main.majors ?? 0),
      },
      workers: {
        allocated: sum((r) => r.heap.workers.allocated),
        pause: sum((r) => r.heap.workers.pause),
        majors: sum((r) => r.heap.workers.majors ?? 0),
      },
    },
  };
}

/**
 * Per preview: CPU (schedstat), and what of it telemetry's frames took on each thread (its
 * share of the thread's busy samples times the thread's CPU), the garbage collector's
 * share likewise, the bytes allocated and the GC pauses (--trace-gc). `samples`: how
 * many samples telemetry's figure rests on (its sampling error is about 1/√samples).
 */
export function costs(run, unit = 500) {
  const n = run.previews;
  const share = (thread, key) => {
    const busy = busyOf(run.samples[thread]);
    return busy > 0 ? (run.samples[thread][key] / busy) * run.cpuMs[thread] : 0;
  };
  const both = (key) => (share('main', key) + share('workers', key)) / n;
  return {
    cpuMs: (run.cpuMs.main + run.cpuMs.workers + run.cpuMs.other) / n,
    mainMs: run.cpuMs.main / n,
    workersMs: run.cpuMs.workers / n,
    otherMs: run.cpuMs.other / n,
    tracingMs: both('tracing'),
    tracingMainMs: share('main', 'tracing') / n,
    metricsMs: both('metrics'),
    metricsMainMs: share('main', 'metrics') / n,
    gcMs: both('gc'),
    allocatedBytes: (run.heap.main.allocated + run.heap.workers.allocated) / n,
    mainAllocatedBytes: run.heap.main.allocated / n,
    pauseMs: (run.heap.main.pause + run.heap.workers.pause) / n,
    mainMajorsPer1000: (1000 * (run.heap.main.majors ?? 0)) / n,
    samples: {
      tracing: (run.samples.main.tracing + run.samples.workers.tracing) / unit,
      metrics: (run.samples.main.metrics + run.samples.workers.metrics) / unit,
    },
  };
}

/**
 * B's cost over A per preview: what B's telemetry frames took beyond A's, and the garbage
 * collection of the bytes B allocated beyond A's, at B's own cost per byte (its GC samples
 * and the helper threads, over its allocation). The ratio estimate is B's CPU over B's
 * CPU without that cost; `measured` is the plain CPU ratio of the two services (noisy).
 */
export function compare(b, a) {
  const frames = b.tracingMs - a.tracingMs + (b.metricsMs - a.metricsMs);
  const gcPerByte = (b.gcMs + b.otherMs) / b.allocatedBytes;
  // The main thread's alone: its window is bounded by marks, the workers' only to ±1
  // collection each, and telemetry's frames are nearly all on the main thread.
  const extraBytes = b.mainAllocatedBytes - a.mainAllocatedBytes;
  const gc = extraBytes * gcPerByte;
  return {
    framesMs: frames,
    extraBytes,
    gcMs: gc,
    estimate: b.cpuMs / (b.cpuMs - frames - gc),
    measured: b.cpuMs / a.cpuMs,
  };
}

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** Comparisons among the variants run: each against the one it adds telemetry to. */
function defaultPairs(specs) {
  const reference = { metrics: 'off', 'metrics-again': 'metrics', tracing: 'metrics' };
  reference['tracing-all'] = 'metrics';
  reference['tracing-none'] = 'metrics';
  return specs.flatMap((spec) => {
    const [name, checkout] = spec.split('@');
    const a = checkout ? name : reference[name];
    return a && specs.includes(a) ? [[spec, a]] : [];
  });
}

export function printReport({ variants, runs, frames, top, size, database, unit }) {
  const specs = variants.map((v) => v.spec);
  const all = Object.fromEntries(specs.map((spec) => [spec, costs(pooled(runs[spec]), unit)]));
  console.log(
    `\n${database}, preview of ${size} (full view), every variant alone, pooled over the rounds:`,
  );
  console.table(
    variants.map((v) => {
      const c = all[v.spec];
      return {
        variant: v.label,
        previews: pooled(runs[v.spec]).previews,
        'CPU ms': fixed(c.cpuMs),
        'main/workers/other': `${fixed(c.mainMs)}/${fixed(c.workersMs)}/${fixed(c.otherMs)}`,
        'tracing ms (main)': `${fixed(c.tracingMs, 3)} (${fixed(c.tracingMainMs, 3)})`,
        'metrics ms (main)': `${fixed(c.metricsMs, 3)} (${fixed(c.metricsMainMs, 3)})`,
        'GC ms': fixed(c.gcMs, 3),
        'heap MB (main)': `${fixed(c.allocatedBytes / 1e6, 3)} (${fixed(c.mainAllocatedBytes / 1e6, 3)})`,
        'GC pause ms': fixed(c.pauseMs, 3),
        'main full GCs /1000': fixed(c.mainMajorsPer1000, 1),
      };
    }),
  );
  const rows = [];
  for (const [b, a] of defaultPairs(specs)) {
    const whole = compare(all[b], all[a]);
    const perRound = runs[b].map((run, i) =>
      runs[a][i] ? compare(costs(run, unit), costs(runs[a][i], unit)).estimate : NaN,
    );
    // Sampling error of the frames' part: √samples of B's telemetry, as a share of B's CPU.
    const samples = all[b].samples.tracing + all[b].samples.metrics;
    const framesError = samples > 0 ? (2 * whole.framesMs) / Math.sqrt(samples) / all[b].cpuMs : 0;
    rows.push({
      'B / A': `${b} / ${a}`,
      'frames ms': fixed(whole.framesMs, 3),
      'extra heap KB': fixed(whole.extraBytes / 1e3, 1),
      'its GC ms': fixed(whole.gcMs, 3),
      estimate: `${fixed(whole.estimate, 4)} ± ${fixed(framesError, 4)}`,
      'per round': perRound.map((r) => fixed(r, 4)).join(' '),
      'plain CPU ratio': fixed(whole.measured, 3),
    });
  }
  console.table(rows);
  for (const spec of specs) {
    const costly = [...frames[spec]].sort((x, y) => y[1] - x[1]).slice(0, top);
    if (costly.length === 0) continue;
    const previews = pooled(runs[spec]).previews;
    console.log(
      `\n${spec}: telemetry's costliest frames (with Node's internals they call), µs of samples per preview`,
    );
    for (const [frame, us] of costly)
      console.log(`  ${fixed(us / previews, 1).padStart(8)}  ${frame}`);
  }
}
