/**
 * BENCH_CLICK_LOG=<file>: each timed click of http-real-cars.mjs as a line `<end, epoch ms>
 * <ms> <engine ms> <service CPU ms> <bytes>`, after `# thread <tid> <name> <start, epoch
 * ms>` lines for the service's threads (once per service). With `--node-args --trace-gc
 * --service-log <file>`, a GC line's time (ms since its thread's isolate started) plus
 * its thread's start is the moment it ran: which clicks it fell into (main thread: the
 * MainThread line; workers: the WorkerThread lines, in the order their isolates first
 * appear). bench/README.md, "Where the main thread's mark-compacts came from".
 */
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';

const file = process.env.BENCH_CLICK_LOG;
const described = new Set();

/** Start times of the process's threads, from /proc (10 ms resolution). */
function threadStarts(pid) {
  const bootSeconds = Number(/btime (\d+)/.exec(readFileSync('/proc/stat', 'utf8'))[1]);
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // Field 22, starttime, in clock ticks (100 a second) since boot.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return `# thread ${tid} ${name} ${bootSeconds * 1000 + ticks * 10}\n`;
  });
}

export function logClick(pid, { ms, engineMs, cpuMs, bytes }) {
  if (!file) return;
  if (!described.has(pid)) {
    described.add(pid);
    appendFileSync(file, threadStarts(pid).join(''));
  }
  const line = `${Date.now()} ${ms.toFixed(2)} ${engineMs} ${cpuMs.toFixed(1)} ${bytes}\n`;
  appendFileSync(file, line);
}
