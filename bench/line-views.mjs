/**
 * The two views of a line side by side in this process (not a test):
 * `node bench/line-views.mjs <model.json> [steps]` over the built engine (dist/, `npm run
 * build`). Along one random walk (one open question answered per step with an available
 * value, as bench/http-real-cars.mjs walks), each step is evaluated in both views,
 * alternately: the evaluation's time, the line's JSON size, its `JSON.stringify` time and
 * its brotli size at quality 1 (the service's level, src/app.setup.ts). Env: LIMITS (JSON
 * engine limits, e.g. `{"consistencyMs":300000}`), SEED.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants } from 'node:zlib';
import { prng } from '../test/support/prng.ts';

const engine = await import(resolve('dist/src/engine/work.js'));
const [path, stepsArg] = process.argv.slice(2);
const STEPS = Number(stepsArg ?? 100);
const random = prng(Number(process.env.SEED ?? 42));
const limits = JSON.parse(process.env.LIMITS ?? '{}');
const compiled = engine.compileDocument(JSON.parse(readFileSync(path, 'utf8')), limits);
if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems.slice(0, 3)));
const model = compiled.model;
const description = JSON.stringify(engine.describeModel(model));
const request = (questions, view) => ({ modelId: 1, versionNumber: 1, questions, view });
const brotli = (text) =>
  brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }).length;

const views = ['full', 'compact'];
const rows = Object.fromEntries(
  views.map((v) => [v, { evaluate: [], stringify: [], kB: [], brKB: [] }]),
);
let answers = {};
for (let step = 0; step < STEPS; step++) {
  let line;
  for (const view of step % 2 === 0 ? views : [...views].reverse()) {
    const started = performance.now();
    const evaluation = engine.evaluate(model, request(answers, view));
    const evaluated = performance.now();
    const text = JSON.stringify(evaluation.line);
    const row = rows[view];
    row.evaluate.push(evaluated - started);
    row.stringify.push(performance.now() - evaluated);
    row.kB.push(Buffer.byteLength(text) / 1000);
    row.brKB.push(brotli(text) / 1000);
    if (view === 'full') line = evaluation.line;
  }
  const open = line.questions.filter((q) => q.visible && q.values.length === 0);
  const choices = open.flatMap((q) => {
    const values =
      q.type === 'boolean'
        ? [true, false].filter((v) => !(q.unavailable_values ?? []).includes(v))
        : (q.options ?? []).filter((o) => o.available).map((o) => o.key);
    return values.length === 0 ? [] : [{ key: q.key, values }];
  });
  if (choices.length === 0) answers = {};
  else {
    const choice = choices[Math.floor(random() * choices.length)];
    answers = {
      ...answers,
      [choice.key]: { values: [choice.values[Math.floor(random() * choice.values.length)]] },
    };
  }
}
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const p99 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.99) - 1)];
console.log(
  `${path}: ${STEPS} steps, ${model.questions.length} questions; description ` +
    `${(description.length / 1000).toFixed(0)} kB (brotli ${(brotli(description) / 1000).toFixed(0)} kB)`,
);
console.table(
  Object.fromEntries(
    views.map((view) => {
      const r = rows[view];
      return [
        view,
        {
          'evaluate median ms': median(r.evaluate).toFixed(2),
          'evaluate p99 ms': p99(r.evaluate).toFixed(2),
          'stringify median ms': median(r.stringify).toFixed(2),
          'stringify p99 ms': p99(r.stringify).toFixed(2),
          'JSON median kB': median(r.kB).toFixed(0),
          'JSON max kB': Math.max(...r.kB).toFixed(0),
          'brotli median kB': median(r.brKB).toFixed(1),
        },
      ];
    }),
  ),
);
