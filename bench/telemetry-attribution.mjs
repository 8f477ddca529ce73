/**
 * What telemetry-profile.mjs reads from a service run with `--cpu-prof` and
 * `--trace-gc`: whose code each profile sample was in (telemetry's or not) within a
 * time window, and what the heap allocated and paused for in that window.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where telemetry's code lives, by what it is for. `tracing`: the OpenTelemetry SDK, its
 * instrumentations and their hooks, the OTLP exporter's protobuf encoding, and ours
 * (src/tracing: server spans, the logs' trace id, the engine task spans). `metrics`:
 * prom-client and what its summaries use, and ours (src/metrics: the HTTP middleware, the
 * engine and dependency metrics; the engine pools' observers). Paths are the built ones.
 */
const OWNERS = [
  [
    'tracing',
    /\/node_modules\/(@opentelemetry|protobufjs|@protobufjs|shimmer|require-in-the-middle|import-in-the-middle)\//,
  ],
  ['tracing', /\/dist\/src\/tracing\//],
  ['metrics', /\/node_modules\/(prom-client|tdigest|bintrees)\//],
  ['metrics', /\/dist\/src\/metrics\//],
  ['metrics', /\/dist\/src\/engine-runtime\/engine-observers\.js$/],
];

/** Node's own code and V8's natives: their time is their caller's. */
const internal = (url) => url === '' || url.startsWith('node:');

/** `tracing`, `metrics`, or `other` for a script's URL (`file:///…` or a path). */
export function ownerOf(url) {
  for (const [owner, pattern] of OWNERS) if (pattern.test(url)) return owner;
  return 'other';
}

/** V8's pseudo-frames: the thread waiting, collecting garbage, or in native code. */
const PSEUDO = { '(idle)': 'idle', '(garbage collector)': 'gc', '(program)': 'program' };

/**
 * Each profile node's category: a pseudo-frame's own, else the owner of the nearest frame
 * (itself or a caller) that is neither Node's internals nor a native, so that a telemetry
 * function's call into Buffer, crypto or AsyncLocalStorage is telemetry's and a wrapper's
 * call back into the application is not. `self` is the node's own frame's owner alone.
 */
function categorize(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const category = new Map();
  const self = new Map();
  const resolveOf = (id) => {
    if (category.has(id)) return category.get(id);
    const { callFrame } = byId.get(id);
    let result = PSEUDO[callFrame.functionName];
    if (result === undefined)
      if (!internal(callFrame.url)) result = ownerOf(callFrame.url);
      else result = parent.has(id) ? resolveOf(parent.get(id)) : 'other';
    category.set(id, result);
    return result;
  };
  for (const node of profile.nodes) {
    resolveOf(node.id);
    const frame = node.callFrame;
    self.set(
      node.id,
      PSEUDO[frame.functionName] ?? (internal(frame.url) ? 'other' : ownerOf(frame.url)),
    );
  }
  return { category, self };
}

/** A thread's sample times by owner, all zero (this sampler's and telemetry-perf.mjs's). */
export const emptyTally = () => ({
  idle: 0,
  gc: 0,
  program: 0,
  tracing: 0,
  metrics: 0,
  other: 0,
  selfTracing: 0,
  selfMetrics: 0,
});

/**
 * Microseconds of samples in [from, to] (µs on the monotonic clock, as
 * `process.hrtime.bigint() / 1000n` reads it: V8 stamps samples with the same clock) by
 * category, and the telemetry frames that took most.
 */
export function tallyProfile(profile, from, to, top) {
  const { category, self } = categorize(profile);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const tally = emptyTally();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (at < from || at > to) continue;
    // A sample's weight is the time since the previous one (the interval, stretched when
    // the sampler was late).
    const weight = profile.timeDeltas[i];
    const id = profile.samples[i];
    const owner = category.get(id);
    tally[owner] += weight;
    if (self.get(id) === 'tracing') tally.selfTracing += weight;
    if (self.get(id) === 'metrics') tally.selfMetrics += weight;
    if (top && (owner === 'tracing' || owner === 'metrics')) {
      const frame = byId.get(id).callFrame;
      const key = `${owner} ${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|dist)\//, '')}:${frame.lineNumber + 1}`;
      top.set(key, (top.get(key) ?? 0) + weight);
    }
  }
  return tally;
}

/**
 * Every profile a start wrote in `dir` (`CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile`;
 * thread 0 is the main thread, the others the engine workers), tallied over the window.
 */
export function tallyProfiles(dir, from, to, top) {
  const threads = { main: emptyTally(), workers: emptyTally() };
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const tid = Number(file.split('.').at(-3));
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const tally = tallyProfile(profile, from, to, top);
    const into = tid === 0 ? threads.main : threads.workers;
    for (const key of Object.keys(into)) into[key] += tally[key];
  }
  return threads;
}

/** `--trace-gc`'s line: `[pid:isolate]  t ms: Scavenge 31.2 (40.1) -> 20.3 (41.1) MB, …, 1.2 / 0.0 ms … reason`. */
const GC_LINE =
  /^\[\d+:(0x[0-9a-f]+)\].*? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms.*$/;

const MARK = / testing;/;

/** How many collections the main thread was asked for so far (telemetry-gc-mark.mjs). */
export const marks = (text) =>
  text.split('\n').filter((line) => GC_LINE.test(line) && MARK.test(line)).length;

/**
 * What `--trace-gc` lines say of the heap between the `from`-th mark (counting from 0)
 * and the next one (the window): bytes allocated and milliseconds paused, on the main
 * thread (the isolate that was marked) and on the others (the engine workers). A
 * collection's allocation is its size before less the same isolate's previous size after;
 * all threads print to one stream, so the lines between the two marks are the collections
 * between them (`majors`: how many were full mark-compacts). A worker's first collection in the window counts from its previous one,
 * before the window (workers are not marked: ±1 collection each).
 */
export function heapBetweenMarks(text, from) {
  const totals = {
    main: { allocated: 0, pause: 0, majors: 0 },
    workers: { allocated: 0, pause: 0, majors: 0 },
  };
  const lines = text.split('\n').filter((line) => GC_LINE.test(line));
  const main = GC_LINE.exec(lines.find((line) => MARK.test(line)) ?? '')?.[1];
  const lastAfter = new Map();
  let seen = 0;
  for (const line of lines) {
    const [, isolate, before, after, pause] = GC_LINE.exec(line);
    const mark = MARK.test(line);
    // Past the window's first mark, up to its second: that one's size before ends it.
    if (seen === from + 1 && lastAfter.has(isolate)) {
      const into = isolate === main ? totals.main : totals.workers;
      into.allocated += (Number(before) - lastAfter.get(isolate)) * 2 ** 20;
      if (!mark) into.pause += Number(pause);
      if (/ Mark-Compact /.test(line)) into.majors += 1;
    }
    lastAfter.set(isolate, Number(after));
    if (mark) seen += 1;
    if (seen > from + 1) break;
  }
  return totals;
}
