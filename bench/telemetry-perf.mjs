/**
 * telemetry-profile.mjs's `--sampler perf`: Linux perf's CPU-clock samples of the service's
 * threads instead of V8's profile. V8's sampler is wall-clock, and on a loaded core its
 * samples did not fall evenly on the code (a planted loop read 2–3× low); perf samples a
 * thread only while it is on a CPU. Node runs with `--perf-basic-prof` (JIT code named in
 * /tmp/perf-<pid>.map, `JS:*name file:///…:line:column`) and
 * `--interpreted-frames-native-stack` (interpreted functions named too).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { emptyTally, ownerOf } from './telemetry-attribution.mjs';

export const PERF_NODE_ARGS = ['--perf-basic-prof', '--interpreted-frames-native-stack'];

/** Starts sampling every thread of `pid` (call graphs by frame pointer); `stop()` ends it. */
export async function startPerf(pid, file, frequency) {
  const perf = spawn(
    'perf',
    ['record', '-e', 'cpu-clock', '-F', String(frequency), '-g', '-p', String(pid), '-o', file],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  perf.stderr.on('data', (chunk) => (errors += chunk));
  // perf prints nothing when it is ready: give it time to attach to every thread.
  await new Promise((done) => setTimeout(done, 300));
  if (perf.exitCode !== null || perf.signalCode !== null)
    throw new Error(`perf record failed: ${errors}`);
  return {
    stop: async () => {
      if (perf.exitCode !== null || perf.signalCode !== null) return;
      perf.kill('SIGINT');
      await once(perf, 'exit');
    },
  };
}

/** A JS frame's script URL (`JS:*fn file:///…/x.js:12:3`), or undefined for native code. */
const JS_FRAME = /^JS:.* (\S+?)(?::\d+:\d+)?$/;
/** V8's collector, wherever a stack is in it. */
const GC_FRAME =
  /v8::internal::(Heap::|Scavenger|MarkCompact|MinorMarkSweep|ConcurrentMarking|IncrementalMarking)/;

/**
 * A sample's category from its stack (leaf first): `gc` when V8's collector is on it, else
 * the owner (telemetry-attribution.mjs) of the nearest JS frame outside Node's internals,
 * else `other` (native work no JS frame reached: the event loop, I/O, the compiler).
 */
export function categoryOf(stack) {
  if (stack.some((sym) => GC_FRAME.test(sym))) return { category: 'gc' };
  for (const sym of stack) {
    const url = JS_FRAME.exec(sym)?.[1];
    if (url === undefined || url.startsWith('node:')) continue;
    return { category: ownerOf(url), frame: sym };
  }
  return { category: 'other' };
}

/**
 * `perf script`'s samples of `file`, tallied as tallyProfiles does (µs: a sample stands for
 * 1/`frequency` s of CPU; `top`: by telemetry's frame):
 * the main thread (its tid is the process's pid) and the engine workers (`WorkerThread`);
 * V8's and libuv's helper threads are left out (their CPU is read from schedstat).
 */
export async function tallyPerf(file, pid, frequency, top) {
  const weight = 1e6 / frequency;
  const threads = { main: emptyTally(), workers: emptyTally() };
  const script = spawn('perf', ['script', '-i', file, '-F', 'comm,tid,ip,sym'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let into = null;
  let stack = [];
  const flush = () => {
    if (into) {
      const { category, frame } = categoryOf(stack);
      into[category] += weight;
      if (top && frame && (category === 'tracing' || category === 'metrics')) {
        const key = `${category} ${frame.replace(/\S*\/(node_modules|dist)\//, '')}`;
        top.set(key, (top.get(key) ?? 0) + weight);
      }
      const self = JS_FRAME.exec(stack[0] ?? '')?.[1];
      if (self && category === 'tracing' && ownerOf(self) === 'tracing') into.selfTracing += weight;
      if (self && category === 'metrics' && ownerOf(self) === 'metrics') into.selfMetrics += weight;
    }
    into = null;
    stack = [];
  };
  for await (const line of createInterface({ input: script.stdout })) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    // A sample's header: `MainThread 1234` (comm may hold spaces); then one frame a line.
    const header = /^(\S.*?)\s+(\d+)\s*$/.exec(line);
    if (header && !line.startsWith('\t') && !line.startsWith(' ')) {
      flush();
      const [, comm, tid] = header;
      into = Number(tid) === pid ? threads.main : comm === 'WorkerThread' ? threads.workers : null;
      continue;
    }
    // `\t    7f3fd9ea6b8b Builtins_MathImul+0x4b (…)` → the symbol without offset and object.
    const frame = /^\s+[0-9a-f]+\s+(.*?)(?:\+0x[0-9a-f]+)?(?: \(.*\))?$/.exec(line);
    if (frame) stack.push(frame[1]);
  }
  flush();
  return threads;
}
