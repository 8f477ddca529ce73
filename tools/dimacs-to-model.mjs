#!/usr/bin/env node
// DIMACS CNF (a feature model as clauses, e.g. the #SAT benchmark collections) → a model
// document with native clause rules (docs/model-format.md "Logical rules").
// usage: node tools/dimacs-to-model.mjs <model.dimacs> [--out model.json] [--name <name>] [--index-keys]
// As a module: import { dimacsToModel } from './dimacs-to-model.mjs'.
//
// Every variable becomes a required boolean question (so the model's configurations are
// exactly the formula's models: its count is the #SAT count), keyed by its name from the
// `c <n> <name>` comment lines (lowercase, [a-z0-9_], at most 64 characters, made unique)
// or `f<n>` with --index-keys or without a name; every clause a rule `c<i>` with
// `clause: [literals]` (`key` for a positive literal, `!key` for a negative one).
// Tautologies (x or not x) are left out and repeated literals written once; an empty
// clause is refused (the formula has no model).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Question keys the model format reserves (CEL words and answer members). */
const RESERVED = new Set([
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
  'null',
  'true',
  'false',
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'bytes',
  'list',
  'map',
  'null_type',
  'type',
  'dyn',
  'cel',
  'optional',
  'google',
  'timestamp',
  'duration',
  'constructor',
  'prototype',
]);

const MAX_LABEL = 500;

/**
 * The model of a DIMACS CNF text: `{document, variables, clauses, skipped}` (clauses
 * written, tautologies left out).
 */
export function dimacsToModel(text, { name = 'DIMACS model', indexKeys = false } = {}) {
  const names = new Map();
  let variables = 0;
  let declaredClauses = 0;
  const clauses = [];
  let current = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('%')) continue;
    if (line.startsWith('c')) {
      const match = /^c\s+(\d+)\$?\s+(\S.*)$/.exec(line);
      if (match !== null) names.set(Number(match[1]), match[2].trim());
      continue;
    }
    if (line.startsWith('p')) {
      const [, format, vars, count] = line.split(/\s+/);
      if (format !== 'cnf') throw new Error(`not a CNF problem line: ${line}`);
      variables = Number(vars);
      declaredClauses = Number(count);
      continue;
    }
    for (const token of line.split(/\s+/)) {
      const literal = Number(token);
      if (!Number.isInteger(literal)) throw new Error(`not a literal: ${token}`);
      if (literal === 0) {
        clauses.push(current);
        current = [];
      } else {
        variables = Math.max(variables, Math.abs(literal));
        current.push(literal);
      }
    }
  }
  if (current.length > 0) clauses.push(current);
  const keys = questionKeys(variables, indexKeys ? new Map() : names);
  const questions = [];
  for (let v = 1; v <= variables; v++) {
    const label = (names.get(v) ?? `Feature ${v}`).slice(0, MAX_LABEL);
    questions.push({ key: keys[v], type: 'boolean', label, required: true });
  }
  const rules = [];
  let skipped = 0;
  clauses.forEach((clause, i) => {
    const literals = [...new Set(clause)];
    if (literals.length === 0)
      throw new Error(`clause ${i + 1} is empty: the formula has no model`);
    if (literals.some((literal) => literals.includes(-literal))) {
      skipped++;
      return;
    }
    rules.push({
      key: `c${i + 1}`,
      clause: literals.map((literal) => (literal > 0 ? keys[literal] : `!${keys[-literal]}`)),
    });
  });
  return {
    document: { general: { name }, questions, rules },
    variables,
    clauses: rules.length,
    declaredClauses,
    skipped,
  };
}

/** Per variable (1-based): a unique question key from its name, else `f<n>`. */
function questionKeys(variables, names) {
  const keys = [''];
  const used = new Set();
  for (let v = 1; v <= variables; v++) {
    const named = names.get(v);
    let key = named === undefined ? `f${v}` : sanitize(named);
    if (!/^[a-z]/.test(key)) key = `f_${key}`;
    key = key.slice(0, 64);
    if (used.has(key) || RESERVED.has(key)) key = `${key.slice(0, 64 - `_${v}`.length)}_${v}`;
    used.add(key);
    keys.push(key);
  }
  return keys;
}

const sanitize = (name) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (flag) => {
    const at = args.indexOf(flag);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const out = option('--out');
  const name = option('--name');
  const indexKeys = args.includes('--index-keys');
  const [input] = args.filter((arg) => !arg.startsWith('--'));
  if (input === undefined) {
    console.error(
      'usage: node tools/dimacs-to-model.mjs <model.dimacs> [--out model.json] [--name <name>] [--index-keys]',
    );
    process.exit(2);
  }
  const result = dimacsToModel(readFileSync(input, 'utf8'), {
    name: name ?? basename(input),
    indexKeys,
  });
  const json = JSON.stringify(result.document);
  if (out === undefined) process.stdout.write(`${json}\n`);
  else writeFileSync(out, json);
  console.error(
    `${result.variables} questions, ${result.clauses} clause rules` +
      ` (${result.skipped} tautologies left out; the header declared ${result.declaredClauses}),` +
      ` ${json.length} bytes`,
  );
}
