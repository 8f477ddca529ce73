/**
 * What this machine charges for the operations a request's latency is made of, beside the
 * benchmarks' figures, so that figures of two machines can be told apart from a change of
 * the code (`npm run bench:machine`; bench:http prints the same line at its head):
 *
 *   syscall:     one fstat (µs): every socket read and write, epoll wait, SQLite lock.
 *   fresh page:  the first write to a page of new memory (µs per 4 kB page): every large
 *                string or buffer (a 1,000-question line is 837 kB, about 200 pages).
 *   thread hop:  a message to a worker thread and its answer (µs): every evaluation.
 *   compute:     a typed-array pass like the engine's (ms for 64 M steps).
 *
 * On 2026-11-29 one machine (a Firecracker VM, paravirtualized) charged 4.5–6 µs a syscall
 * and 12–16 µs a fresh page, where bare metal charges well under 1 µs for either: its
 * figures of large previews and the floors' are not comparable with another machine's.
 */
import { fstatSync, openSync, closeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const PAGE = 4096;

/** The median of `rounds` timings of `run` (ms). */
function medianMs(rounds, run) {
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)];
}

function syscallMicros() {
  const fd = openSync(process.execPath, 'r');
  try {
    const calls = 2000;
    return (
      (medianMs(5, () => {
        for (let i = 0; i < calls; i++) fstatSync(fd);
      }) *
        1000) /
      calls
    );
  } finally {
    closeSync(fd);
  }
}

function freshPageMicros() {
  const bytes = 16 << 20;
  return (
    (medianMs(5, () => {
      // Uninitialized and unpooled: its pages are touched first by this loop.
      const buffer = Buffer.allocUnsafeSlow(bytes);
      for (let at = 0; at < bytes; at += PAGE) buffer[at] = 1;
    }) *
      1000) /
    (bytes / PAGE)
  );
}

async function threadHopMicros() {
  const worker = new Worker(
    'require("node:worker_threads").parentPort.on("message", (m) => require("node:worker_threads").parentPort.postMessage(m))',
    { eval: true },
  );
  const hop = () =>
    new Promise((done) => {
      worker.once('message', done);
      worker.postMessage(1);
    });
  try {
    for (let i = 0; i < 50; i++) await hop();
    const times = [];
    for (let i = 0; i < 400; i++) {
      const started = performance.now();
      await hop();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[200] * 1000;
  } finally {
    await worker.terminate();
  }
}

function computeMs() {
  const size = 1 << 16;
  const kids = new Int32Array(size).map((_, i) => (i * 7919) % size);
  const count = new Float64Array(size).fill(1);
  return medianMs(5, () => {
    for (let round = 0; round < 1024; round++)
      for (let id = size - 1; id >= 0; id--) count[id] = count[kids[id]] * 0.5 + 1;
  });
}

/** The four costs, measured now (about half a second). */
export async function machineCosts() {
  return {
    syscallMicros: syscallMicros(),
    freshPageMicros: freshPageMicros(),
    threadHopMicros: await threadHopMicros(),
    computeMs: computeMs(),
  };
}

/** One line: `syscall 5.2 µs, fresh page 13.9 µs, thread hop 61 µs, compute 180 ms`. */
export function describeCosts(costs) {
  return (
    `syscall ${costs.syscallMicros.toFixed(1)} µs, fresh page ${costs.freshPageMicros.toFixed(1)} µs, ` +
    `thread hop ${costs.threadHopMicros.toFixed(0)} µs, compute ${costs.computeMs.toFixed(0)} ms`
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(`machine: ${describeCosts(await machineCosts())}`);
