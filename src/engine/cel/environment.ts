import { Environment } from '@marcbachmann/cel-js';
import { MAX_EXPRESSION_DEPTH } from './depth.js';

/** Question types of docs/model-format.md and the CEL type their value has in expressions. */
export const QUESTION_TYPES = [
  'choice',
  'multi_choice',
  'number',
  'integer',
  'boolean',
  'text',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const CEL_TYPE_OF_QUESTION: Readonly<Record<QuestionType, string>> = {
  choice: 'string',
  multi_choice: 'list<string>',
  number: 'double',
  integer: 'int',
  boolean: 'bool',
  text: 'string',
};

type NumericOp = (left: number, right: number) => number;
const ARITHMETIC: ReadonlyArray<[string, NumericOp]> = [
  ['+', (a, b) => a + b],
  ['-', (a, b) => a - b],
  ['*', (a, b) => a * b],
  ['/', (a, b) => a / b],
];

/**
 * CEL has no implicit int/double conversion; models need `width * 2.0` and
 * `width * height / 1000000.0` with integer questions, so both environments get the
 * mixed overloads (int op double → double). Ordering comparisons across int/double
 * are built in; equality is added here.
 */
function registerMixedNumeric(env: Environment): Environment {
  for (const [op, fn] of ARITHMETIC) {
    env.registerOperator(`int ${op} double: double`, (a: bigint, b: number) => fn(Number(a), b));
    env.registerOperator(`double ${op} int: double`, (a: number, b: bigint) => fn(a, Number(b)));
  }
  // Registering `int == double` also provides `!=` and the mirrored `double == int`.
  env.registerOperator('int == double: bool', (a: bigint, b: number) => Number(a) === b);
  return env;
}

/** cel-js's parse limits, with the nesting depth our own AST check (depth.ts) also applies. */
const LIMITS = { limits: { maxDepth: MAX_EXPRESSION_DEPTH } };

/**
 * The type-checking environment: names carry their model types. `x == null` is
 * allowed for every question type so that models can test for "unanswered"; the
 * handlers never run (this environment only checks).
 */
const baseCheckEnvironment = registerMixedNumeric(new Environment(LIMITS));
for (const type of ['string', 'int', 'double', 'bool', 'list<string>']) {
  baseCheckEnvironment.registerOperator(
    `${type} == null: bool`,
    (a: unknown, b: unknown) => a === b,
  );
}

/**
 * The evaluation environment: every name is `dyn`, because an unanswered question
 * is `null` and a typed variable rejects null on every read. With dyn names,
 * `frame == 'pvc'` on null is false and `width > 1200` on null is an evaluation
 * error (= unknown), as docs/model-format.md requires. Types were already enforced by
 * the checking environment, so runtime values always have the checked type or null.
 */
const baseEvaluationEnvironment = registerMixedNumeric(new Environment(LIMITS));

/** A fresh pair of environments for one model (cloning is cheap; the bases stay intact). */
export function createEnvironments(): { check: Environment; evaluate: Environment } {
  return { check: baseCheckEnvironment.clone(), evaluate: baseEvaluationEnvironment.clone() };
}
