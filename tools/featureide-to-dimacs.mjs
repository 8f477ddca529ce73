#!/usr/bin/env node
// A FeatureIDE feature model (XML: `<struct>` tree, `<constraints>` formulas) → DIMACS CNF,
// for the public models published only in that format (e.g. automotive02's 18,616-feature
// versions); tools/dimacs-to-model.mjs takes it from there.
// usage: node tools/featureide-to-dimacs.mjs <model.xml> [--out model.dimacs]
// As a module: import { featureIdeToDimacs } from './featureide-to-dimacs.mjs'.
//
// The usual semantics: the root holds; a child implies its parent; a mandatory child of an
// `and` feature is implied by it; an `or` / `alt` feature implies one of its children, and
// an `alt`'s children exclude each other pairwise. A constraint (`var`, `not`, `conj`,
// `disj`, `imp`, `eq`) is put in negation normal form and distributed into clauses; the
// constraints of feature models are short, so distribution stays small (a constraint past
// 10,000 clauses is refused rather than given auxiliary variables, which would change the
// count). Variables are numbered in the tree's order, named by `c <n> <name>` lines.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FEATURE_TAGS = new Set(['feature', 'and', 'or', 'alt']);
const MAX_CLAUSES_PER_CONSTRAINT = 10_000;

/** The CNF of a FeatureIDE XML text: `{text, variables, clauses}`. */
export function featureIdeToDimacs(xml) {
  const featureModel = childTagged(parseXml(xml), 'featureModel');
  const struct = childTagged(featureModel, 'struct');
  const numbers = new Map();
  const names = [];
  const number = (node) => {
    const name = /\bname="([^"]*)"/.exec(node.attributes)?.[1];
    if (name === undefined) throw new Error(`a <${node.tag}> without a name`);
    let n = numbers.get(name);
    if (n === undefined) {
      n = names.push(name);
      numbers.set(name, n);
    }
    return n;
  };
  const root = struct.children.find((node) => FEATURE_TAGS.has(node.tag));
  if (root === undefined) throw new Error('no feature in <struct>');
  const clauses = [[number(root)]];
  const pending = [root];
  while (pending.length > 0) {
    const parent = pending.shift();
    const p = number(parent);
    const children = parent.children.filter((node) => FEATURE_TAGS.has(node.tag));
    const vs = children.map(number);
    children.forEach((child, i) => {
      clauses.push([-vs[i], p]);
      if (parent.tag === 'and' && /\bmandatory="true"/.test(child.attributes))
        clauses.push([-p, vs[i]]);
    });
    if ((parent.tag === 'or' || parent.tag === 'alt') && vs.length > 0) {
      clauses.push([-p, ...vs]);
      if (parent.tag === 'alt')
        for (let i = 0; i < vs.length; i++)
          for (let j = i + 1; j < vs.length; j++) clauses.push([-vs[i], -vs[j]]);
    }
    pending.push(...children);
  }
  const constraints = featureModel.children.find((node) => node.tag === 'constraints');
  for (const rule of constraints?.children ?? []) {
    if (rule.tag !== 'rule' || rule.children.length === 0) continue;
    for (const clause of distribute(normal(rule.children[0], false, numbers))) {
      const literals = [...new Set(clause)];
      if (!literals.some((literal) => literals.includes(-literal))) clauses.push(literals);
    }
  }
  const lines = names.map((name, i) => `c ${i + 1} ${name}`);
  lines.push(`p cnf ${names.length} ${clauses.length}`);
  for (const clause of clauses) lines.push(`${clause.join(' ')} 0`);
  return { text: `${lines.join('\n')}\n`, variables: names.length, clauses: clauses.length };
}

/** Elements as `{tag, attributes, children, text}`; enough XML for FeatureIDE's files. */
function parseXml(xml) {
  const document = { tag: '', attributes: '', children: [], text: '' };
  const open = [document];
  for (const [, closing, tag, attributes, selfClosing, text] of xml.matchAll(
    /<(\/?)([A-Za-z][\w.-]*)([^>]*?)(\/?)>|<[?!][^>]*>|([^<]+)/g,
  )) {
    const current = open[open.length - 1];
    if (text !== undefined) current.text += text.trim();
    else if (tag === undefined) continue;
    else if (closing === '/') {
      if (current.tag !== tag) throw new Error(`</${tag}> closes <${current.tag}>`);
      open.pop();
    } else {
      const element = { tag, attributes, children: [], text: '' };
      current.children.push(element);
      if (selfClosing !== '/') open.push(element);
    }
  }
  return document;
}

function childTagged(node, tag) {
  const found = node.children.find((child) => child.tag === tag);
  if (found === undefined) throw new Error(`no <${tag}> in <${node.tag || 'document'}>`);
  return found;
}

/** Negation normal form: `{literal}`, `{all: [...]}` or `{any: [...]}`. */
function normal(node, negated, numbers) {
  const [a, b] = node.children;
  const not = (child) => ({ tag: 'not', attributes: '', children: [child], text: '' });
  const either = (...children) => ({ tag: 'disj', attributes: '', children, text: '' });
  switch (node.tag) {
    case 'var': {
      const n = numbers.get(node.text);
      if (n === undefined) throw new Error(`constraint on an unknown feature ${node.text}`);
      return { literal: negated ? -n : n };
    }
    case 'not':
      return normal(a, !negated, numbers);
    case 'conj':
    case 'disj': {
      const parts = node.children.map((child) => normal(child, negated, numbers));
      return (node.tag === 'conj') !== negated ? { all: parts } : { any: parts };
    }
    case 'imp':
      return normal(either(not(a), b), negated, numbers);
    case 'eq': {
      const both = {
        tag: 'conj',
        attributes: '',
        children: [either(not(a), b), either(not(b), a)],
      };
      return normal(both, negated, numbers);
    }
    default:
      throw new Error(`constraint operator <${node.tag}> is not supported`);
  }
}

function distribute(formula) {
  if (formula.literal !== undefined) return [[formula.literal]];
  if (formula.all !== undefined) return formula.all.flatMap(distribute);
  let clauses = [[]];
  for (const part of formula.any) {
    const partClauses = distribute(part);
    clauses = clauses.flatMap((clause) => partClauses.map((other) => [...clause, ...other]));
    if (clauses.length > MAX_CLAUSES_PER_CONSTRAINT)
      throw new Error(`a constraint past ${MAX_CLAUSES_PER_CONSTRAINT} clauses`);
  }
  return clauses;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [input, ...rest] = process.argv.slice(2);
  if (input === undefined) {
    console.error('usage: node tools/featureide-to-dimacs.mjs <model.xml> [--out model.dimacs]');
    process.exit(2);
  }
  const out = rest[rest.indexOf('--out') + 1];
  const converted = featureIdeToDimacs(readFileSync(input, 'utf8'));
  if (rest.includes('--out') && out !== undefined) writeFileSync(out, converted.text);
  else process.stdout.write(converted.text);
  console.error(`${converted.variables} variables, ${converted.clauses} clauses`);
}
