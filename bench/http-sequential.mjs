/**
 * Sequential previews (the goal: "preview latency, sequential … ≤ 1.3× the in-process
 * floor"): what a buyer feels is one request at a time, not throughput. The service and
 * the evaluate floor (http-floor.mjs: parse, the same evaluation in-process, send) answer
 * the same request one at a time over one kept-alive connection, in alternating blocks,
 * each request timed from its first byte sent to its answer's last byte received (no
 * compression asked: the floor sends identity too). The ratio is of the medians. A target
 * with a `pid` also has the CPU its process used in its blocks (/proc, every thread), and
 * its main thread's, its worker threads' (the engine's) and V8's GC helpers', per request:
 * what the machine's other load hardly moves.
 */
import { Agent, request as httpRequest } from 'node:http';
import {
  cpuSeconds,
  fixed,
  mainThreadCpuSeconds,
  median,
  minorFaults,
  percentile,
  threadsCpuSeconds,
} from './http-measure.mjs';

/** One request on `agent`'s kept-alive connection; its time in ms and its status. */
function timed(agent, base, { method, path, headers, body }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent,
        headers: { ...headers, ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `targets` ({name, base, request, pid?}) answered one request at a time, `perRound`
 * requests per target per round, targets alternating, `rounds` rounds after 5 warm-up
 * requests each. Per target: `times`, of every measured request, and `cpuMs`,
 * `mainCpuMs`, `workerCpuMs` and `gcCpuMs`, its process's, its main thread's, its worker
 * threads' and its GC helpers' CPU per request over its blocks, and `faults`, its minor
 * page faults per request (NaN without a pid).
 */
export async function sequentialTimes(targets, { perRound, rounds }) {
  const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const runs = targets.map(() => ({ times: [], cpu: 0, main: 0, workers: 0, gc: 0, faults: 0 }));
  try {
    for (const [i, target] of targets.entries())
      for (let w = 0; w < 5; w++) await timed(agents[i], target.base, target.request);
    for (let round = 0; round < rounds; round++)
      for (const [i, target] of targets.entries()) {
        const cpuBefore = cpuSeconds(target.pid);
        const mainBefore = mainThreadCpuSeconds(target.pid);
        const workersBefore = threadsCpuSeconds(target.pid, 'WorkerThread');
        const gcBefore = threadsCpuSeconds(target.pid, 'V8Worker');
        const faultsBefore = minorFaults(target.pid);
        for (let n = 0; n < perRound; n++) {
          const { ms, status } = await timed(agents[i], target.base, target.request);
          if (status !== 200) throw new Error(`${target.name}: ${status} in the sequential run`);
          runs[i].times.push(ms);
        }
        runs[i].cpu += cpuSeconds(target.pid) - cpuBefore;
        runs[i].main += mainThreadCpuSeconds(target.pid) - mainBefore;
        runs[i].workers += threadsCpuSeconds(target.pid, 'WorkerThread') - workersBefore;
        runs[i].gc += threadsCpuSeconds(target.pid, 'V8Worker') - gcBefore;
        runs[i].faults += minorFaults(target.pid) - faultsBefore;
      }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return runs.map(({ times, cpu, main, workers, gc, faults }) => ({
    times,
    cpuMs: (1000 * cpu) / times.length,
    mainCpuMs: (1000 * main) / times.length,
    workerCpuMs: (1000 * workers) / times.length,
    gcCpuMs: (1000 * gc) / times.length,
    faults: faults / times.length,
  }));
}

/**
 * A row of the sequential table: a target's median / p99 and its median over the floor's
 * (`ratio`); its CPU per request and that over the floor's (`CPU ratio`), its main
 * thread's, its worker threads' and its GC helper threads' CPU per request, and its page
 * faults per request (fresh memory touched: 4 kB each).
 */
export function sequentialRow(database, scenario, target, run, floor, goal) {
  const { times, cpuMs, mainCpuMs, workerCpuMs, gcCpuMs, faults } = run;
  return {
    database,
    scenario,
    target,
    requests: times.length,
    'median ms': fixed(median(times), 2),
    'p99 ms': fixed(percentile(times, 0.99), 2),
    ratio: floor ? fixed(median(times) / median(floor.times), 2) : '',
    'CPU ms': fixed(cpuMs, 2),
    'CPU ratio': floor ? fixed(cpuMs / floor.cpuMs, 2) : '',
    'main CPU ms': fixed(mainCpuMs, 2),
    'worker CPU ms': fixed(workerCpuMs, 2),
    'GC helpers CPU ms': fixed(gcCpuMs, 2),
    'page faults': fixed(faults, 0),
    goal: goal ?? '',
  };
}
