/**
 * Random small models for the consistency property tests (4–9 finite questions,
 * random tables, CEL rules, visibility, required, available_if, multi_choice bounds,
 * integers and booleans) and a brute-force oracle that enumerates every assignment
 * of the finite questions and checks it with the docs/model-format.md semantics, written
 * independently of the diagram code (it only shares the compiled CEL programs).
 */
import { EvaluationContext, UNKNOWN } from '../../../src/engine/cel/expression.js';
import type { CartLine, CompiledModel } from '../../../src/engine/work.js';
import { prng } from '../../support/prng.js';

export { prng };

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)];
const chance = (random: Random, p: number): boolean => random() < p;

interface QuestionSpec {
  key: string;
  type: 'choice' | 'multi_choice' | 'boolean' | 'integer';
  options: string[];
  min?: number;
  max?: number;
}

/** A CEL atom over one question. */
function atom(random: Random, q: QuestionSpec): string {
  switch (q.type) {
    case 'choice':
      return pick(random, [
        `${q.key} == '${pick(random, q.options)}'`,
        `${q.key} != '${pick(random, q.options)}'`,
        `${q.key} == null`,
      ]);
    case 'boolean':
      return pick(random, [`${q.key} == true`, `${q.key} == false`, `${q.key}`]);
    case 'integer':
      return pick(random, [`${q.key} > ${q.min}`, `${q.key} == ${q.max}`, `${q.key} != null`]);
    case 'multi_choice':
      return pick(random, [`'${pick(random, q.options)}' in ${q.key}`, `${q.key} == null`]);
  }
}

function expression(random: Random, pool: readonly QuestionSpec[]): string {
  const first = atom(random, pick(random, pool));
  if (!chance(random, 0.6)) return chance(random, 0.2) ? `!(${first})` : first;
  return `${first} ${pick(random, ['&&', '||'])} ${atom(random, pick(random, pool))}`;
}

export interface RandomModel {
  document: Record<string, unknown>;
  specs: QuestionSpec[];
}

/** What a random model may hold besides tables and CEL rules. */
export interface RandomModelOptions {
  /** Clause, cardinality, `requires` and `excludes` rules (docs/model-format.md "Logical rules"). */
  readonly logical?: boolean;
}

export function randomModel(random: Random, options: RandomModelOptions = {}): RandomModel {
  const count = 4 + Math.floor(random() * 6);
  const specs: QuestionSpec[] = [];
  let product = 1;
  for (let i = 0; i < count; i++) {
    let type = pick(random, ['choice', 'choice', 'boolean', 'integer', 'multi_choice'] as const);
    if (product > 2000) type = 'boolean';
    const spec: QuestionSpec = { key: `q${i}`, type, options: [] };
    if (type === 'choice')
      spec.options = ['a', 'b', 'c', 'd'].slice(0, 2 + Math.floor(random() * 3));
    if (type === 'multi_choice')
      spec.options = ['x', 'y', 'z'].slice(0, 2 + Math.floor(random() * 2));
    if (type === 'integer') {
      spec.min = Math.floor(random() * 2);
      spec.max = spec.min + 1 + Math.floor(random() * 2);
    }
    product *=
      type === 'multi_choice'
        ? 2 ** spec.options.length
        : type === 'boolean'
          ? 3
          : type === 'integer'
            ? (spec.max as number) - (spec.min as number) + 2
            : spec.options.length + 1;
    specs.push(spec);
  }
  const questions = specs.map((spec, i) => {
    const question: Record<string, unknown> = { key: spec.key, type: spec.type, label: spec.key };
    if (spec.type === 'choice' || spec.type === 'multi_choice') {
      question.options = spec.options.map((key) => {
        const option: Record<string, unknown> = { key, label: key };
        if (chance(random, 0.12)) option.available_if = expression(random, specs);
        return option;
      });
    }
    if (spec.type === 'multi_choice') {
      if (chance(random, 0.4)) question.min_selected = 2;
      if (chance(random, 0.4)) question.max_selected = 1 + Math.floor(random() * 2);
      if ((question.min_selected as number) > ((question.max_selected as number) ?? 9))
        delete question.min_selected;
    }
    if (spec.type === 'integer') {
      question.min = spec.min;
      question.max = spec.max;
    }
    const required = random();
    if (required < 0.35) question.required = true;
    else if (required < 0.5) question.required = expression(random, specs);
    // visible_if reads only earlier questions (no dependency cycle).
    if (i > 0 && chance(random, 0.3)) question.visible_if = expression(random, specs.slice(0, i));
    // Soft values: a literal default now and then.
    if (chance(random, 0.2) && spec.type !== 'multi_choice')
      question.default = literalOf(random, spec);
    return question;
  });
  // A trigger reads only questions before the one it sets (no dependency cycle).
  const triggers: Array<Record<string, unknown>> = [];
  const targets = specs.filter((spec, i) => i > 0 && spec.type !== 'multi_choice');
  if (targets.length > 0 && chance(random, 0.4)) {
    const target = pick(random, targets);
    const before = specs.slice(0, specs.indexOf(target));
    triggers.push({
      key: 'tr0',
      when: expression(random, before),
      set: { [target.key]: literalOf(random, target) },
    });
  }
  const single = specs.filter((spec) => spec.type !== 'multi_choice');
  const rules: Array<Record<string, unknown>> = [];
  const tables = single.length >= 2 ? Math.floor(random() * 3) : 0;
  for (let t = 0; t < tables; t++) {
    const columns = [...single].sort(() => random() - 0.5).slice(0, 2 + Math.floor(random() * 2));
    const rows: unknown[][] = [];
    const rowCount = 1 + Math.floor(random() * 5);
    for (let r = 0; r < rowCount; r++) rows.push(columns.map((column) => cellOf(random, column)));
    const rule: Record<string, unknown> = {
      key: `t${t}`,
      message: 'table',
      allowed: { columns: columns.map((column) => column.key), rows },
    };
    if (chance(random, 0.25)) rule.when = expression(random, specs);
    rules.push(rule);
  }
  const asserts = Math.floor(random() * 3);
  for (let a = 0; a < asserts; a++) {
    const rule: Record<string, unknown> = {
      key: `r${a}`,
      message: 'rule',
      assert: expression(random, specs),
    };
    if (chance(random, 0.3)) rule.when = expression(random, specs);
    if (chance(random, 0.15)) rule.severity = 'warning';
    rules.push(rule);
  }
  if (options.logical === true) rules.push(...logicalRules(random, specs));
  return { document: { general: { name: 'random' }, questions, rules, triggers }, specs };
}

/** A literal over a choice, multi_choice or boolean question, negated now and then. */
function literal(random: Random, specs: readonly QuestionSpec[]): string {
  const spec = pick(
    random,
    specs.filter((candidate) => candidate.type !== 'integer'),
  );
  const negated = chance(random, 0.35);
  if (spec.type === 'boolean') {
    const form = Math.floor(random() * 3);
    if (form === 0) return negated ? `!${spec.key}` : spec.key;
    return `${spec.key} ${negated ? '!=' : '='} ${form === 1 ? 'true' : 'false'}`;
  }
  return `${spec.key} ${negated ? '!=' : '='} ${pick(random, spec.options)}`;
}

/** 1–3 logical rules of every kind, some with a `when` or a warning severity. */
function logicalRules(
  random: Random,
  specs: readonly QuestionSpec[],
): Array<Record<string, unknown>> {
  if (!specs.some((spec) => spec.type !== 'integer')) return [];
  const rules: Array<Record<string, unknown>> = [];
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const literals = (n: number): string[] =>
      Array.from({ length: n }, () => literal(random, specs));
    const rule: Record<string, unknown> = { key: `l${i}` };
    const kind = pick(random, ['clause', 'at_least', 'at_most', 'requires', 'excludes'] as const);
    if (kind === 'clause') rule.clause = literals(1 + Math.floor(random() * 4));
    else if (kind === 'requires' || kind === 'excludes') rule[kind] = literals(2);
    else {
      const of = literals(2 + Math.floor(random() * 4));
      rule[kind] = { count: Math.floor(random() * (of.length + 1)), of };
    }
    if (chance(random, 0.2)) rule.when = expression(random, specs);
    if (chance(random, 0.1)) rule.severity = 'warning';
    rules.push(rule);
  }
  return rules;
}

function cellOf(random: Random, spec: QuestionSpec): unknown {
  if (spec.type === 'boolean') return chance(random, 0.5);
  if (spec.type === 'integer') return (spec.min as number) + Math.floor(random() * 3);
  return pick(random, spec.options);
}

/** A value within the question's domain (defaults and trigger values). */
function literalOf(random: Random, spec: QuestionSpec): unknown {
  if (spec.type !== 'integer') return cellOf(random, spec);
  const min = spec.min as number;
  return min + Math.floor(random() * ((spec.max as number) - min + 1));
}

/** One assignment: per question its value index (single) or selection bitmask (multi). */
export type Assignment = number[];

/** The value of question i under an assignment, as CEL sees it. */
export function celValue(spec: QuestionSpec, code: number): unknown {
  if (spec.type === 'multi_choice') {
    const keys = spec.options.filter((_, o) => (code & (1 << o)) !== 0);
    return keys.length === 0 ? null : keys;
  }
  if (code === 0) return null;
  if (spec.type === 'choice') return spec.options[code - 1];
  if (spec.type === 'boolean') return code === 2;
  return BigInt((spec.min as number) + code - 1);
}

export function domainCount(spec: QuestionSpec): number {
  if (spec.type === 'multi_choice') return 2 ** spec.options.length;
  if (spec.type === 'boolean') return 3;
  if (spec.type === 'integer') return (spec.max as number) - (spec.min as number) + 2;
  return spec.options.length + 1;
}

/** Every valid assignment of the model (docs/model-format.md "Consistency", by enumeration). */
export function validAssignments(
  model: CompiledModel,
  specs: readonly QuestionSpec[],
): Assignment[] {
  const constraints = constraintsOf(model, specs);
  return allAssignments(specs).filter((assignment) =>
    constraints.every((constraint) => constraint.holds(assignment)),
  );
}

/** Every assignment of the finite questions (valid or not). */
export function allAssignments(specs: readonly QuestionSpec[]): Assignment[] {
  const all: Assignment[] = [];
  const current = specs.map(() => 0);
  const visit = (i: number): void => {
    if (i === specs.length) {
      all.push([...current]);
      return;
    }
    for (let code = 0; code < domainCount(specs[i]); code++) {
      current[i] = code;
      visit(i + 1);
    }
  };
  visit(0);
  return all;
}

/**
 * One constraint of the finite part, as docs/model-format.md states it: a question's status
 * (hidden ⇒ no value, required ⇒ a value, selection bounds), an option's available_if,
 * a table, an `error` assert. `scope`: the questions it reads (by key), with the
 * option for an available_if of a multi_choice (`q.o`), for the acyclicity test.
 */
export interface Constraint {
  readonly name: string;
  readonly scope: readonly string[];
  holds(assignment: Assignment): boolean;
}

const namesIn = (expression: { names: readonly string[] } | undefined): readonly string[] =>
  expression?.names ?? [];

export function constraintsOf(model: CompiledModel, specs: readonly QuestionSpec[]): Constraint[] {
  const context = new EvaluationContext();
  const load = (assignment: Assignment): void =>
    specs.forEach((spec, i) => context.set(spec.key, celValue(spec, assignment[i])));
  const layersOf = (key: string): string[] => {
    const spec = specs.find((candidate) => candidate.key === key);
    return spec?.type === 'multi_choice' ? spec.options.map((o) => `${key}.${o}`) : [key];
  };
  const scopeOf = (...keys: string[]): string[] => [...new Set(keys.flatMap(layersOf))];
  const constraints: Constraint[] = [];
  for (const question of model.questions) {
    const required = question.required;
    constraints.push({
      name: `questions.${question.key}`,
      scope: scopeOf(
        question.key,
        ...namesIn(question.visibleIf),
        ...(typeof required === 'boolean' ? [] : namesIn(required)),
      ),
      holds: (assignment) => {
        load(assignment);
        const value = context.get(question.key);
        const visible = (question.visibleIf?.condition(context) ?? true) === true;
        if (!visible) return value === null;
        const needed =
          typeof required === 'boolean' ? required : required.condition(context) === true;
        if (needed && value === null) return false;
        if (value === null || question.type !== 'multi_choice') return true;
        const n = (value as string[]).length;
        if (question.minSelected !== undefined && n < question.minSelected) return false;
        return !(question.maxSelected !== undefined && n > question.maxSelected);
      },
    });
    for (const option of question.options) {
      const condition = option.availableIf;
      if (condition === undefined) continue;
      const own =
        question.type === 'multi_choice' ? [`${question.key}.${option.key}`] : [question.key];
      constraints.push({
        name: `questions.${question.key}.options.${option.key}`,
        scope: [...new Set([...own, ...scopeOf(...namesIn(condition))])],
        holds: (assignment) => {
          load(assignment);
          const value = context.get(question.key);
          const chosen = Array.isArray(value) ? (value as string[]) : [value];
          return !chosen.includes(option.key) || condition.condition(context) !== false;
        },
      });
    }
  }
  for (const rule of model.rules) {
    const applies = (): boolean => rule.when === undefined || rule.when.condition(context) === true;
    const table = rule.table;
    if (table !== undefined) {
      const { columns, cells, rowCount } = table;
      const keys = Array.from(columns, (column) => model.questions[column].key);
      constraints.push({
        name: `rules.${rule.key}`,
        scope: scopeOf(...keys, ...namesIn(rule.when)),
        holds: (assignment) => {
          load(assignment);
          if (!applies()) return true;
          for (let r = 0; r < rowCount; r++) {
            let matched = true;
            for (let c = 0; c < columns.length && matched; c++) {
              const value = context.get(keys[c]);
              matched = value === null || value === cells[r * columns.length + c];
            }
            if (matched) return true;
          }
          return false;
        },
      });
    } else if (rule.logic !== undefined && rule.severity === 'error') {
      const logic = rule.logic;
      const keys = Array.from(logic.questions, (q) => model.questions[q].key);
      constraints.push({
        name: `rules.${rule.key}`,
        scope: scopeOf(...keys, ...namesIn(rule.when)),
        holds: (assignment) => {
          load(assignment);
          if (!applies()) return true;
          // model-format.md "Logical rules": a single-value question with no value leaves
          // its literal open, holding for at_least and not for at_most.
          let holding = 0;
          let open = 0;
          keys.forEach((key, i) => {
            const question = model.questions[logic.questions[i]];
            const value = context.get(key);
            const option = logic.options[i];
            let equal: boolean;
            if (question.type === 'multi_choice')
              equal = ((value as string[] | null) ?? []).includes(question.options[option].key);
            else if (value === null) {
              open++;
              return;
            } else if (question.type === 'boolean') equal = value === (option === 1);
            else equal = value === question.options[option].key;
            if (equal !== (logic.negated[i] === 1)) holding++;
          });
          return logic.bound === 'at_least'
            ? holding + open >= logic.count
            : holding <= logic.count;
        },
      });
    } else if (rule.assert !== undefined && rule.severity === 'error') {
      const assert = rule.assert;
      constraints.push({
        name: `rules.${rule.key}`,
        scope: scopeOf(...namesIn(rule.when), ...namesIn(assert)),
        holds: (assignment) => {
          load(assignment);
          if (!applies()) return true;
          const result = assert.condition(context);
          return result === UNKNOWN || result !== false;
        },
      });
    }
  }
  return constraints;
}

/** A restriction: question index → value code (multi_choice: a mask of the fixed bits). */
export interface Fix {
  question: number;
  code: number;
  /** multi_choice: which bits are fixed (all of them for an answer). */
  mask: number;
}

/** Whether an assignment takes every fixed value. */
export const agrees = (assignment: Assignment, fixes: readonly Fix[]): boolean =>
  fixes.every((fix) => (assignment[fix.question] & fix.mask) === (fix.code & fix.mask));

/** The answers the engine kept (visible, of these sources: the user's by default) as fixes. */
export function userFixes(
  line: CartLine,
  specs: readonly QuestionSpec[],
  sources: readonly string[] = ['user'],
): Fix[] {
  const fixes: Fix[] = [];
  line.questions.forEach((question, q) => {
    if (!sources.includes(question.source) || !question.visible) return;
    const spec = specs[q];
    if (spec.type === 'multi_choice') {
      let code = 0;
      for (const key of question.values as string[]) code |= 1 << spec.options.indexOf(key);
      // The selected options are the answer; the others stay open.
      fixes.push({ question: q, code, mask: code });
      return;
    }
    const value = question.values[0];
    let code = -1;
    if (spec.type === 'choice') code = spec.options.indexOf(value as string) + 1;
    else if (spec.type === 'boolean') code = value === true ? 2 : 1;
    else code = (value as number) - (spec.min as number) + 1;
    fixes.push({ question: q, code, mask: -1 });
  });
  return fixes;
}
