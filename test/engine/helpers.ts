import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { expect } from 'vitest';
import {
  compileDocument,
  type CompiledModel,
  type Evaluation,
  type EvaluationRequest,
  type Problem,
} from '../../src/engine/work.js';
import { evaluateConfiguration } from '../../src/engine/evaluate/evaluate.js';
import { DOOR_DIR, WINDOW_YAML_PATH } from '../support/examples.js';

type Doc = Record<string, unknown>;

export function loadYaml(path: string): Doc {
  return yaml.load(readFileSync(path, 'utf8')) as Doc;
}

export function windowDocument(): Doc {
  return loadYaml(WINDOW_YAML_PATH);
}

const LIST_SECTIONS = ['questions', 'variables', 'rules', 'triggers', 'bom_items', 'images'];

/**
 * The door zip's model with its fragment merged by hand (lists appended, translation
 * merged per language): enough for engine tests, independent of the source helper.
 */
export function doorDocument(): Doc {
  const dir = DOOR_DIR;
  const model = loadYaml(join(dir, 'model.yaml'));
  const fragment = loadYaml(join(dir, 'fragments/hardware.yaml'));
  for (const section of LIST_SECTIONS) {
    if (fragment[section] === undefined) continue;
    model[section] = [
      ...((model[section] as unknown[]) ?? []),
      ...(fragment[section] as unknown[]),
    ];
  }
  const translation = { ...((model.translation as Record<string, Doc>) ?? {}) };
  for (const [language, texts] of Object.entries(
    (fragment.translation as Record<string, Doc>) ?? {},
  )) {
    translation[language] = { ...(translation[language] ?? {}), ...texts };
  }
  model.translation = translation;
  return model;
}

export function compileOk(document: unknown): CompiledModel {
  const result = compileDocument(document);
  if (!result.ok)
    throw new Error(`expected the model to compile: ${JSON.stringify(result.problems, null, 1)}`);
  return result.model;
}

export function compileProblems(document: unknown): Problem[] {
  const result = compileDocument(document);
  if (result.ok) throw new Error('expected the model to be rejected');
  return result.problems;
}

/**
 * `/questions/0/options/2/price` → `questions[0].options[2].price`: a problem's place by
 * positions, as tests written against the document's lists name it.
 */
export function positionalPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, token) =>
        /^\d+$/.test(token) ? `${path}[${token}]` : path === '' ? token : `${path}.${token}`,
      '',
    );
}

/**
 * Asserts that a problem with this code (and path, when given) is among `problems`. The
 * path may be given by keys (`questions.frame.options.pvc`), as problems name it, or by
 * positions (`questions[0].options[1]`), as its pointer does.
 */
export function expectProblem(problems: readonly Problem[], code: string, path?: string): Problem {
  const at = (p: Problem) =>
    path === undefined ||
    p.path === path ||
    (p.pointer !== undefined && positionalPath(p.pointer) === path);
  const found = problems.find((p) => p.code === code && at(p));
  expect(found, `${code} at ${path ?? '(any)'} in ${JSON.stringify(problems)}`).toBeDefined();
  return found as Problem;
}

/** `{key: value}` or `{key: [values]}` → the request's `{key: {values: [...]}}`. */
export function answers(values: Record<string, unknown>): Record<string, { values: unknown[] }> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      { values: Array.isArray(value) ? value : [value] },
    ]),
  );
}

export function evaluate(
  model: CompiledModel,
  values: Record<string, unknown>,
  options: Partial<Omit<EvaluationRequest, 'view'>> = {},
): Evaluation {
  return evaluateConfiguration(model, {
    modelId: 7,
    versionNumber: 3,
    questions: answers(values),
    ...options,
    view: 'full',
  });
}

/** An evaluation as JSON with its timing zeroed: two evaluations of the same answers compare equal. */
export function evaluationJson(evaluation: Evaluation): string {
  evaluation.line.cache.evaluated_in_ms = 0;
  return JSON.stringify(evaluation);
}

/** A minimal valid model plus the given sections. */
export function model(sections: Doc = {}): Doc {
  return { general: { name: 'Test model' }, ...sections };
}

export function question(evaluation: Evaluation, key: string) {
  const found = evaluation.line.questions.find((q) => q.key === key);
  if (found === undefined) throw new Error(`no question ${key}`);
  return found;
}

export function rule(evaluation: Evaluation, key: string) {
  const found = evaluation.line.rules.find((r) => r.key === key);
  if (found === undefined) throw new Error(`no rule ${key}`);
  return found;
}

export function errorPaths(evaluation: Evaluation): Array<string | undefined> {
  return evaluation.errors.map((e) => e.path);
}

/** One question of every type, for expression tests. */
export const dims = [
  { key: 'width', type: 'integer', label: 'W' },
  { key: 'height', type: 'integer', label: 'H' },
  { key: 'ratio', type: 'number', label: 'R' },
  {
    key: 'frame',
    type: 'choice',
    label: 'F',
    options: [
      { key: 'pvc', label: 'PVC' },
      { key: 'alu', label: 'Alu' },
    ],
  },
  {
    key: 'extras',
    type: 'multi_choice',
    label: 'E',
    options: [
      { key: 'lock', label: 'L' },
      { key: 'vent', label: 'V' },
    ],
  },
  { key: 'glass', type: 'boolean', label: 'G' },
  { key: 'note', type: 'text', label: 'N' },
];

/** Options `{key, label}` (label: the key in capitals). */
export const opts = (...keys: string[]) => keys.map((key) => ({ key, label: key.toUpperCase() }));

/** A choice question with these option keys. */
export const choice = (key: string, keys: string[], extra: Record<string, unknown> = {}) => ({
  key,
  type: 'choice',
  label: key,
  options: opts(...keys),
  ...extra,
});

/**
 * A small linear congruential generator: `next(n)` draws an integer below n, the same
 * draws for the same seed (the consistency tests' random models and scopes).
 */
export function lcg(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

/**
 * `questions` choice questions of `values` options (o0, o1…) chained by tables: table i
 * allows `rows` random rows over a random earlier question, q(i+1) and q(i+2), so that
 * the parts overlap as in a real model and the consistency compile has work to budget.
 * `openRow`: every table also allows all-o0, so the model surely has a configuration.
 */
export function chainedTablesModel(
  questions: number,
  seed: number,
  {
    values: valueCount,
    rows,
    openRow = false,
  }: { values: number; rows: number; openRow?: boolean },
): Doc {
  const next = lcg(seed);
  const keys = Array.from({ length: questions }, (_, i) => `q${i}`);
  const values = Array.from({ length: valueCount }, (_, i) => `o${i}`);
  return model({
    questions: keys.map((key) => choice(key, values)),
    rules: keys.slice(2).map((key, i) => ({
      key: `t${i}`,
      message: 'm',
      allowed: {
        columns: [keys[next(i + 2)], keys[i + 1], key],
        rows: [
          ...(openRow ? [['o0', 'o0', 'o0']] : []),
          ...Array.from({ length: rows }, () => [0, 0, 0].map(() => values[next(valueCount)])),
        ],
      },
    })),
  });
}
