/**
 * What a line's problems cost on their way from the worker to a preview's answer
 * (docs/adr/0219), for N problems shaped as a feature model's unanswered required
 * questions: as objects (a structured clone in the worker and on the main thread, then
 * JSON.stringify there; node:v8's serializer stands in for the clone) against JSON text
 * written in the worker (nothing on the main thread but the bytes). Median and tenth
 * percentile of 200 runs, ms.
 *
 *   node bench/line-problems.bench.mjs [N=2500]
 */
import { deserialize, serialize } from 'node:v8';

const count = Number(process.argv[2] ?? 2500);
const problems = Array.from({ length: count }, (_, i) => ({
  code: 'required',
  message: `question n_${100000 + i}__f_${100001 + i} is required`,
  path: `questions.n_${100000 + i}__f_${100001 + i}`,
}));

function timed(work) {
  const times = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return `${times[100].toFixed(3)} (p10 ${times[20].toFixed(3)})`;
}

const cloned = serialize(problems);
const received = deserialize(cloned);
console.log(`${count} problems, ${JSON.stringify(problems).length} bytes of JSON`);
console.table({
  'as objects': {
    worker: timed(() => serialize(problems)),
    'main thread': timed(() => Buffer.from(JSON.stringify(deserialize(cloned)))),
  },
  'as JSON text': {
    worker: timed(() => new TextEncoder().encode(`"errors":${JSON.stringify(problems)}`)),
    'main thread': '0 (the bytes, transferred)',
  },
});
void received;
