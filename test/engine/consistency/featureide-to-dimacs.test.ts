/**
 * tools/featureide-to-dimacs.mjs: the CNF of a random FeatureIDE model has as models
 * exactly the assignments the model's own semantics allows (tree, groups, constraints),
 * checked by brute force over every assignment of its features.
 */
import { describe, expect, it } from 'vitest';
import { countModels, parseCnf } from '../../../bench/count-cnf.js';
import { featureIdeToDimacs } from '../../../tools/featureide-to-dimacs.mjs';
import { prng } from '../../support/prng.js';

interface Feature {
  name: string;
  kind: 'feature' | 'and' | 'or' | 'alt';
  mandatory: boolean;
  children: Feature[];
}
type Formula =
  | { op: 'var'; name: string }
  | { op: 'not'; of: Formula }
  | { op: 'conj' | 'disj' | 'imp' | 'eq'; of: Formula[] };

function randomModel(random: () => number): {
  root: Feature;
  constraints: Formula[];
  names: string[];
} {
  const names: string[] = [];
  const make = (depth: number): Feature => {
    const name = `F${names.length}`;
    names.push(name);
    const children: Feature[] = [];
    const width = depth < 3 && names.length < 9 ? Math.floor(random() * 4) : 0;
    for (let i = 0; i < width && names.length < 10; i++) children.push(make(depth + 1));
    const kinds = ['and', 'or', 'alt'] as const;
    const kind = children.length === 0 ? 'feature' : kinds[Math.floor(random() * 3)];
    return { name, kind, mandatory: random() < 0.4, children };
  };
  const root = make(0);
  const formula = (depth: number): Formula => {
    if (depth > 1 || random() < 0.3)
      return { op: 'var', name: names[Math.floor(random() * names.length)] };
    if (random() < 0.2) return { op: 'not', of: formula(depth + 1) };
    const ops = ['conj', 'disj', 'imp', 'eq'] as const;
    const op = ops[Math.floor(random() * 4)];
    const arity = op === 'imp' || op === 'eq' ? 2 : 2 + Math.floor(random() * 2);
    return { op, of: Array.from({ length: arity }, () => formula(depth + 1)) };
  };
  const constraints = Array.from({ length: Math.floor(random() * 4) }, () => formula(0));
  return { root, constraints, names };
}

function toXml(root: Feature, constraints: Formula[]): string {
  const feature = (f: Feature): string => {
    const attributes = `${f.mandatory ? ' mandatory="true"' : ''} name="${f.name}"`;
    return f.children.length === 0
      ? `<feature${attributes}/>`
      : `<${f.kind}${attributes}>\n${f.children.map(feature).join('\n')}\n</${f.kind}>`;
  };
  const formula = (g: Formula): string =>
    g.op === 'var'
      ? `<var>${g.name}</var>`
      : g.op === 'not'
        ? `<not>${formula(g.of)}</not>`
        : `<${g.op}>${g.of.map(formula).join('')}</${g.op}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<featureModel>',
    `<struct>${feature(root)}</struct>`,
    `<constraints>${constraints.map((g) => `<rule>${formula(g)}</rule>`).join('')}</constraints>`,
    '<comments/>',
    '</featureModel>',
  ].join('\n');
}

function bruteForce(root: Feature, constraints: Formula[], names: string[]): bigint {
  let models = 0n;
  for (let mask = 0; mask < 2 ** names.length; mask++) {
    const on = (name: string) => ((mask >> names.indexOf(name)) & 1) === 1;
    const holds = (g: Formula): boolean => {
      switch (g.op) {
        case 'var':
          return on(g.name);
        case 'not':
          return !holds(g.of);
        case 'conj':
          return g.of.every(holds);
        case 'disj':
          return g.of.some(holds);
        case 'imp':
          return !holds(g.of[0]) || holds(g.of[1]);
        case 'eq':
          return holds(g.of[0]) === holds(g.of[1]);
      }
    };
    const valid = (f: Feature): boolean => {
      const selected = f.children.filter((c) => on(c.name)).length;
      if (selected > 0 && !on(f.name)) return false;
      if (on(f.name)) {
        if (f.kind === 'and' && f.children.some((c) => c.mandatory && !on(c.name))) return false;
        if (f.kind === 'or' && selected === 0) return false;
        if (f.kind === 'alt' && selected !== 1) return false;
      }
      return f.children.every(valid);
    };
    if (on(root.name) && valid(root) && constraints.every(holds)) models++;
  }
  return models;
}

describe('FeatureIDE XML → DIMACS CNF', () => {
  it('300 random models: the CNF has exactly the models the feature model allows', () => {
    const counts = new Set<bigint>();
    for (let seed = 1; seed <= 300; seed++) {
      const { root, constraints, names } = randomModel(prng(seed));
      const converted = featureIdeToDimacs(toXml(root, constraints));
      expect(converted.variables, `seed ${seed}`).toBe(names.length);
      const { variables, clauses } = parseCnf(converted.text);
      const expected = bruteForce(root, constraints, names);
      expect(countModels(variables, clauses), `seed ${seed}`).toBe(expected);
      counts.add(expected);
    }
    expect(counts.has(0n)).toBe(true);
    expect(counts.size).toBeGreaterThan(10);
  });

  it('names the variables and refuses an unknown feature or operator', () => {
    const xml = (rule: string) =>
      `<featureModel><struct><and name="A"><feature mandatory="true" name="B"/></and></struct>` +
      `<constraints><rule>${rule}</rule></constraints></featureModel>`;
    const { text } = featureIdeToDimacs(xml('<not><var>B</var></not>'));
    expect(text).toBe('c 1 A\nc 2 B\np cnf 2 4\n1 0\n-2 1 0\n-1 2 0\n-2 0\n');
    expect(() => featureIdeToDimacs(xml('<var>C</var>'))).toThrow(/unknown feature C/);
    expect(() => featureIdeToDimacs(xml('<atmost1><var>B</var></atmost1>'))).toThrow(/atmost1/);
  });
});
