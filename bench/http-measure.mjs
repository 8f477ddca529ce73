/**
 * How `npm run bench:http` measures (bench/http.bench.mjs): autocannon load against one
 * target, several targets in alternation, and the rows of the printed tables.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { call } from './service-fixture.mjs';
import { connections, duration, repo, rounds } from './http-options.mjs';

const autocannon = createRequire(join(repo, 'package.json'))('autocannon');

/**
 * CPU seconds a process has used, all its threads (zlib's pool included), from
 * /proc/<pid>/stat; NaN where there is no /proc. Unlike req/s it hardly moves when other
 * processes share the machine. The database server's own CPU is not in it.
 */
export function cpuSeconds(pid) {
  try {
    return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return NaN;
  }
}

/** CPU seconds of a process's main thread alone (the event loop's): its task of the same id. */
export function mainThreadCpuSeconds(pid) {
  return cpuSeconds(`${pid}/task/${pid}`);
}

/**
 * CPU seconds of a process's threads named `name` (Node names its workers `WorkerThread`,
 * V8's GC helpers `V8Worker`), summed: idle ones add nothing, so in a sequential run the
 * workers' sum is the evaluation worker's own CPU. NaN where there is no /proc.
 */
export function threadsCpuSeconds(pid, name) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return NaN;
  }
  let seconds = 0;
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === name)
        seconds += statCpuSeconds(stat);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return seconds;
}

/**
 * A process's minor page faults so far (/proc, every thread): each first write to a page
 * of fresh memory. Dear on some machines (machine.bench.mjs), so worth a column. NaN where
 * there is no /proc.
 */
export function minorFaults(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
  } catch {
    return NaN;
  }
}

/** User + system CPU seconds of a /proc `stat` file's text (a process's or a thread's). */
export function statCpuSeconds(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
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
export async function load(base, request, pid, metrics) {
  if (metrics) await loopMaxMs(base);
  const cpuBefore = cpuSeconds(pid);
  // `perClient`: each connection sends its own request (e.g. its own line to PUT).
  let client = 0;
  const perClient = request.perClient;
  const setupClient = perClient && ((c) => c.setRequests([perClient[client++ % perClient.length]]));
  const result = await autocannon({
    url: `${base}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration,
    timeout: 60,
    ...(setupClient ? { setupClient } : {}),
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

export const median = (values) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1];

/** The value below which `share` of `values` lie (nearest rank). */
export function percentile(values, share) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

/**
 * Several targets ({name, base, pid, request, before?}) measured in alternation, `rounds`
 * times, after five warm-up requests each; rates over all rounds.
 */
export async function measure(targets) {
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
  const sum = (list, key) => list.reduce((total, r) => total + r[key], 0);
  return runs.map((list) => ({
    rps: sum(list, 'requests') / sum(list, 'seconds'),
    cpuMs: (1000 * sum(list, 'cpu')) / sum(list, 'requests'),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    bytes: median(list.map((r) => r.bytes)),
    loopMaxMs: Math.max(...list.map((r) => r.loopMaxMs)),
  }));
}

export const NOT_SERVED = { rps: NaN, p50: NaN, p99: NaN, cpuMs: NaN, bytes: NaN, loopMaxMs: NaN };
export const fixed = (value, digits = 1) =>
  Number.isFinite(value) ? value.toFixed(digits) : 'n/a';

/**
 * The printed tables: scenarios, the engine inside and outside, real cars' clicks,
 * sequential previews against the evaluate floor.
 */
export const tables = { rows: [], engine: [], clicks: [], sequential: [] };

/**
 * One line of the table. `against`: the stats this target is compared with, `by`:
 * 'time' (this target's time per request over the other's: req/s inverted, and CPU per
 * request) or 'throughput' (this target's req/s over the other's, CPU inverted).
 */
export function row(database, scenario, target, stats, against, by, goal) {
  const time = by === 'time';
  tables.rows.push({
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
