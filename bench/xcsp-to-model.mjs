/**
 * XCSP 2.1 (extensional constraints) → the model format (MODEL_FORMAT.md), for benchmarks.
 *
 *   node bench/xcsp-to-model.mjs <instance.xml> <model.json> [--name <name>]
 *        [--sales <sold cars.txt> <sales.txt>] [--solutions <published count>]
 *
 * The shape of ../shared/benchmarks/renault-medium (its README): every variable becomes a
 * required `choice` question (key: the name in lowercase, label: the name), one option per domain value (key `o<value>`,
 * `-1` → `n1`, other negatives `m<value>`; label the value), in declaration order; every
 * constraint becomes an `allowed` rule `t<i>` (constraint order) over its scope. A
 * `conflicts` relation becomes the rows of the scope's product it does not forbid (refused
 * past MAX_ROWS); intensional constraints (predicates) are refused. The sales file (a line of
 * variable names, then one sold configuration per line) is checked against the domains and
 * written with the question keys in its first line (the consistency benchmark maps the
 * values the same way).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Most rows a `conflicts` relation may expand to. */
const MAX_ROWS = 1_000_000;

/** A question key (lowercase: MODEL_FORMAT.md's key pattern); the label keeps the name. */
const questionKey = (name) => {
  const key = name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return /^[a-z]/.test(key) ? key : `v_${key}`;
};

const optionKey = (value) =>
  value === '-1' ? 'n1' : value.startsWith('-') ? `m${value.slice(1)}` : `o${value}`;

function fail(message) {
  console.error(`xcsp-to-model: ${message}`);
  process.exit(1);
}

/** `name="x" …` → {name: 'x', …}. */
function attributes(text) {
  const found = {};
  for (const match of text.matchAll(/([\w:-]+)\s*=\s*"([^"]*)"/g)) found[match[1]] = match[2];
  return found;
}

/** Elements `<tag …>body</tag>` or `<tag …/>`, with their attributes and body. */
function* elements(xml, tag) {
  const pattern = new RegExp(`<${tag}\\b([^>]*?)(?:/>|>([\\s\\S]*?)</${tag}>)`, 'g');
  for (const match of xml.matchAll(pattern))
    yield { attributes: attributes(match[1]), body: match[2] ?? '' };
}

/** A domain's values: integers and `a..b` intervals, in the order written. */
function domainValues(body) {
  const values = [];
  for (const token of body.trim().split(/\s+/).filter(Boolean)) {
    const interval = /^(-?\d+)\.\.(-?\d+)$/.exec(token);
    if (interval === null) {
      if (!/^-?\d+$/.test(token)) fail(`domain value ${token} is not an integer`);
      values.push(String(Number(token)));
      continue;
    }
    for (let v = Number(interval[1]); v <= Number(interval[2]); v++) values.push(String(v));
  }
  return values;
}

/** A relation's tuples: `a b | c d | …`. */
function tuples(body, arity) {
  return body
    .split('|')
    .map((tuple) => tuple.trim())
    .filter((tuple) => tuple.length > 0)
    .map((tuple) => {
      const values = tuple.split(/\s+/).map((value) => String(Number(value)));
      if (values.length !== arity) fail(`a tuple of ${values.length} values for arity ${arity}`);
      return values;
    });
}

/** The scope's product minus `forbidden` (a `conflicts` relation). */
function complement(domains, forbidden) {
  const size = domains.reduce((product, values) => product * values.length, 1);
  if (size - forbidden.length > MAX_ROWS)
    fail(`a conflicts relation expands past ${MAX_ROWS} rows`);
  const excluded = new Set(forbidden.map((tuple) => tuple.join(' ')));
  let rows = [[]];
  for (const values of domains) rows = rows.flatMap((row) => values.map((v) => [...row, v]));
  return rows.filter((row) => !excluded.has(row.join(' ')));
}

function convert(xml, name, source) {
  if (/<predicate\b/.test(xml) || /<function\b/.test(xml))
    fail('intensional constraints (predicates, functions) are not supported');
  const domains = new Map();
  for (const { attributes: a, body } of elements(xml, 'domain')) {
    const values = domainValues(body);
    if (a.nbValues !== undefined && Number(a.nbValues) !== values.length)
      fail(`domain ${a.name}: nbValues ${a.nbValues}, ${values.length} values`);
    domains.set(a.name, values);
  }
  const variables = new Map();
  const questions = [];
  for (const { attributes: a } of elements(xml, 'variable')) {
    const values = domains.get(a.domain);
    if (values === undefined) fail(`variable ${a.name}: unknown domain ${a.domain}`);
    variables.set(a.name, values);
    const key = questionKey(a.name);
    if (questions.some((question) => question.key === key)) fail(`two variables give key ${key}`);
    questions.push({
      key,
      type: 'choice',
      label: a.name,
      required: true,
      options: values.map((value) => ({ key: optionKey(value), label: value })),
    });
  }
  const relations = new Map();
  for (const { attributes: a, body } of elements(xml, 'relation')) {
    if (a.semantics !== 'supports' && a.semantics !== 'conflicts')
      fail(`relation ${a.name}: semantics ${a.semantics} (soft constraints are not supported)`);
    relations.set(a.name, { semantics: a.semantics, tuples: tuples(body, Number(a.arity)) });
  }
  const rules = [];
  for (const { attributes: a } of elements(xml, 'constraint')) {
    const relation = relations.get(a.reference);
    if (relation === undefined) fail(`constraint ${a.name}: no relation ${a.reference}`);
    const scope = a.scope.trim().split(/\s+/);
    const scopeDomains = scope.map((variable) => {
      const values = variables.get(variable);
      if (values === undefined) fail(`constraint ${a.name}: unknown variable ${variable}`);
      return values;
    });
    const allowed =
      relation.semantics === 'supports'
        ? relation.tuples
        : complement(scopeDomains, relation.tuples);
    for (const row of allowed)
      row.forEach((value, i) => {
        if (!scopeDomains[i].includes(value))
          fail(`constraint ${a.name}: ${value} is not in ${scope[i]}'s domain`);
      });
    rules.push({
      key: `t${rules.length}`,
      message: `incompatible (${a.name})`,
      allowed: { columns: scope.map(questionKey), rows: allowed.map((row) => row.map(optionKey)) },
    });
  }
  return {
    general: { name, code: name, description: `converted from ${source}` },
    questions,
    rules,
  };
}

/** Checks the sold configurations against the domains; the file with question keys. */
function checkSales(text, model) {
  const lines = text.trim().split('\n');
  const keys = lines[0].trim().split(/\s+/);
  const byKey = new Map(model.questions.map((question) => [question.label, question]));
  for (const key of keys) if (!byKey.has(key)) fail(`sales: ${key} is not a variable`);
  lines.slice(1).forEach((line, n) => {
    const values = line.trim().split(/\s+/);
    if (values.length !== keys.length) fail(`sales line ${n + 2}: ${values.length} values`);
    values.forEach((value, i) => {
      const options = byKey.get(keys[i]).options;
      if (!options.some((option) => option.key === optionKey(value)))
        fail(`sales line ${n + 2}: ${value} is not in ${keys[i]}'s domain`);
    });
  });
  const header = keys.map((key) => byKey.get(key).key).join(' ');
  return { cars: lines.length - 1, text: [header, ...lines.slice(1)].join('\n') + '\n' };
}

const args = process.argv.slice(2);
const option = (flag, count = 1) => {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const values = args.splice(at, count + 1).slice(1);
  if (values.length !== count) fail(`${flag} needs ${count} argument(s)`);
  return values;
};
const name = option('--name')?.[0];
const sales = option('--sales', 2);
const solutions = option('--solutions')?.[0];
const [input, output] = args;
if (input === undefined || output === undefined)
  fail('usage: xcsp-to-model.mjs <instance.xml> <model.json> [--name n] [--sales in out]');
const model = convert(
  readFileSync(input, 'utf8'),
  name ?? basename(input, '.xml'),
  basename(input),
);
if (solutions !== undefined) model['x-reference'] = { solutions };
writeFileSync(output, JSON.stringify(model));
const rows = model.rules.reduce((sum, rule) => sum + rule.allowed.rows.length, 0);
console.log(
  `${output}: ${model.questions.length} questions, ` +
    `${model.questions.reduce((sum, q) => sum + q.options.length, 0)} options, ` +
    `${model.rules.length} tables, ${rows} rows`,
);
if (sales !== undefined) {
  const text = readFileSync(sales[0], 'utf8');
  const { cars, text: converted } = checkSales(text, model);
  writeFileSync(sales[1], converted);
  console.log(`${sales[1]}: ${cars} sold configurations, every value in its domain`);
}
