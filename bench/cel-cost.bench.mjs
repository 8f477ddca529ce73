// Time per cost unit of the CEL functions the estimator prices (cel/cost.ts), each at a
// worst-case input: estimates must stay upper bounds of the work, i.e. every case must run
// at no more than ~2.5 ns per unit (docs/ENGINE.md "Expression cost"). Run after
// `npm run build`: node bench/cel-cost.bench.mjs [--filter text]
import { estimateCost, listShape, SCALAR, stringShape } from '../dist/src/engine/cel/cost.js';
import { createEnvironments } from '../dist/src/engine/cel/environment.js';
import { EvaluationContext, Expression, UNKNOWN } from '../dist/src/engine/cel/expression.js';

const filter = process.argv.includes('--filter')
  ? process.argv[process.argv.indexOf('--filter') + 1]
  : '';
const TEXT = 2000; // a text question of max_length 1,000 (UTF-16 units)
const list = (n) => Array.from({ length: n }, (_, i) => `o${i}`);
const jsonList = (bytes) =>
  `[${Array(Math.floor((bytes - 1) / 2))
    .fill(1)
    .join(',')}]`;

/** [label, source, values]: names are t, u (texts of TEXT units) and m (a list). */
const cases = [
  ['tz getter', "m.map(x, timestamp(0).getHours('America/New_York')).size()", { m: list(200) }],
  [
    'tz getDayOfYear',
    "m.map(x, timestamp(0).getDayOfYear('Asia/Kolkata')).size()",
    { m: list(200) },
  ],
  ['getter', 'm.map(x, timestamp(0).getHours()).size()', { m: list(1000) }],
  ['timestamp(text)', "m.map(x, timestamp('2024-02-29T12:34:56.789Z')).size()", { m: list(1000) }],
  [
    'duration getter',
    "m.map(x, duration('1h2m3s4ms5us6ns').getSeconds()).size()",
    { m: list(1000) },
  ],
  ['duration(text) 200', 'duration(t)', { t: `${'1'.repeat(199)}x` }],
  ['duration(text) 400', 'duration(t)', { t: `${'1'.repeat(399)}x` }],
  ['duration(text) parts', 'duration(t)', { t: '1s'.repeat(TEXT / 2) }],
  ['s.size()', 'm.map(x, t.size()).size()', { m: list(100), t: '😀'.repeat(TEXT / 2) }],
  ['size(s)', 'm.map(x, size(t)).size()', { m: list(100), t: '😀'.repeat(TEXT / 2) }],
  ['upperAscii', 'm.map(x, t.upperAscii()).size()', { m: list(100), t: 'ﬃ'.repeat(TEXT) }],
  ['lowerAscii', 'm.map(x, t.lowerAscii()).size()', { m: list(100), t: 'İ'.repeat(TEXT) }],
  ["split('')", "m.map(x, t.split('')).size()", { m: list(20), t: 'a'.repeat(TEXT) }],
  [
    'contains',
    'm.map(x, t.contains(u)).size()',
    { m: list(100), t: 'a'.repeat(TEXT), u: `${'a'.repeat(TEXT / 2 - 1)}b` },
  ],
  ['bytes(s)', 'm.map(x, bytes(t)).size()', { m: list(100), t: '€'.repeat(TEXT) }],
  ['json()', 'm.map(x, bytes(t).json()).size()', { m: list(20), t: jsonList(TEXT) }],
  [
    'json() nested',
    'cel.bind(a, dyn(bytes(t).json()), a.map(x, a.map(y, 1)).size())',
    { t: jsonList(TEXT) },
  ],
  ['list ==', 'm == n', { m: list(1000), n: list(1000) }],
  [
    'map size()',
    `cel.bind(mm, {${Array.from({ length: 500 }, (_, i) => `${i}:1`).join(',')}}, m.map(x, mm.size()).size())`,
    { m: list(100) },
  ],
  [
    'json() == 666 lists',
    'bytes(t).json() == bytes(u).json()',
    { t: `[${Array(666).fill('[]').join(',')}]`, u: `[${Array(666).fill('[]').join(',')}]` },
  ],
  [
    'json() == 285 maps',
    'bytes(t).json() == bytes(u).json()',
    {
      t: `[${Array(285).fill('{"":1}').join(',')}]`,
      u: `[${Array(285).fill('{"":1}').join(',')}]`,
    },
  ],
  [
    'json() == 32 deep',
    'bytes(t).json() == bytes(u).json()',
    { t: `${'['.repeat(32)}${']'.repeat(32)}`, u: `${'['.repeat(32)}${']'.repeat(32)}` },
  ],
  [
    'json() 1000 deep (refused)',
    'bytes(t).json() == bytes(u).json()',
    { t: `${'['.repeat(1000)}${']'.repeat(1000)}`, u: `${'['.repeat(1000)}${']'.repeat(1000)}` },
  ],
  ['hex()', 'm.map(x, bytes(t).hex()).size()', { m: list(100), t: 'a'.repeat(TEXT) }],
  ['base64()', 'm.map(x, bytes(t).base64()).size()', { m: list(100), t: 'a'.repeat(TEXT) }],
  ['string(bytes)', 'm.map(x, string(bytes(t))).size()', { m: list(100), t: 'é'.repeat(TEXT) }],
  ['matches ^[a-z]+$', "t.matches('^[a-z]+$')", { t: 'a'.repeat(TEXT) }],
  ['matches [a-z]*[0-9]$', "t.matches('[a-z]*[0-9]$')", { t: 'a'.repeat(TEXT) }],
  ['matches (?:a?){100}a{100}', "t.matches('(?:a?){100}a{100}')", { t: 'ab'.repeat(TEXT / 2) }],
  ['matches (?:a?){1000}a{1000}', "t.matches('(?:a?){1000}a{1000}')", { t: 'a'.repeat(TEXT) }],
  ['matches (?i)(\\w+\\s?){50}z', "t.matches('(?i)(\\\\w+\\\\s?){50}z')", { t: 'a'.repeat(TEXT) }],
  ['matches (.*a){100}b', "t.matches('(.*a){100}b')", { t: 'ab'.repeat(TEXT / 2) }],
  [
    String.raw`matches (?i)[\pL\pN\pS\pP\pM]{10}z`,
    String.raw`t.matches('(?i)[\\pL\\pN\\pS\\pP\\pM]{10}z')`,
    { t: 'aé'.repeat(TEXT / 2) },
  ],
  ['matches computed', 't.matches(u)', { t: 'ab'.repeat(TEXT / 2), u: '(\\w+\\s?)'.repeat(50) }],
  [
    'matches computed short',
    'm.map(x, t.matches(u)).size()',
    { m: list(20), t: 'a'.repeat(100), u: '(a*)*(a|b)*.*c' },
  ],
];

/** The shapes of exactly these values: the estimate for this input's size. */
const shapeOf = (value) =>
  Array.isArray(value)
    ? listShape(value.length, stringShape(Math.max(...value.map((v) => v.length))))
    : typeof value === 'string'
      ? stringShape(value.length)
      : SCALAR;
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let worst = 0;
for (const [label, source, values] of cases) {
  if (filter && !label.includes(filter)) continue;
  const environment = createEnvironments().evaluate;
  for (const name of Object.keys(values)) environment.registerVariable(name, 'dyn');
  const ast = environment.parse(source).ast;
  const estimate = estimateCost(ast, (name) =>
    name in values ? shapeOf(values[name]) : undefined,
  ).cost;
  const expression = Expression.compile(source, 'x', Object.keys(values), estimate, environment);
  const times = [];
  let result;
  // Warm (the service runs warm), then the median of runs totalling ~100 ms (at least 5).
  for (let i = 0, spent = 0; i < 5 || (spent < 1e8 && i < 200); i++) {
    const context = new EvaluationContext(Object.entries(values));
    const started = process.hrtime.bigint();
    result = expression.run(context);
    const took = Number(process.hrtime.bigint() - started);
    if (i > 0) times.push(took);
    spent += took;
  }
  const ns = median(times);
  const perUnit = ns / estimate;
  worst = Math.max(worst, perUnit);
  const shown = result === UNKNOWN ? 'unknown' : String(result).slice(0, 12);
  console.log(
    `${label.padEnd(30)} ${(ns / 1e6).toFixed(3).padStart(9)} ms ${estimate.toExponential(2).padStart(9)} units ${perUnit.toFixed(3).padStart(7)} ns/unit  (${shown})`,
  );
}
console.log(`slowest: ${worst.toFixed(3)} ns per unit`);
