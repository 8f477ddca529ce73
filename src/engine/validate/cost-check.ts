import type { ParseResult } from '@marcbachmann/cel-js';
import { estimateCost, listShape, SCALAR, type Shape, stringShape } from '../cel/cost.js';
import type { Expression } from '../cel/expression.js';
import {
  isRegexProblem,
  type LiteralPrograms,
  literalPattern,
  literalProgram,
  matchesCalls,
} from '../cel/regex.js';
import type { CompiledQuestion } from '../model-core.js';
import type { ProblemList } from '../problems.js';

/**
 * The largest value a question can hold in an expression. Option keys bound choices and
 * multi_choice lists (answers, defaults and trigger values are always option keys, each
 * at most once); text is held to `max_length` code points — a longer answer is refused
 * before any expression runs (question-values.ts `convertElement`, used by
 * evaluate/answers.ts), a longer literal `default` or trigger `set` value at upload (the
 * same check, from validate/), a longer computed one when it is computed (values.ts
 * `fromCel`: not used, a warning) — which is at most twice as many UTF-16 units, the unit
 * cel-js works in. Tested in test/engine/cel/safety.test.ts.
 */
export function shapeOfQuestion(question: CompiledQuestion): Shape {
  const longestKey = question.options.reduce((max, option) => Math.max(max, option.key.length), 0);
  switch (question.type) {
    case 'choice':
      return stringShape(longestKey);
    case 'multi_choice':
      return listShape(question.options.length, stringShape(longestKey));
    case 'text':
      return stringShape(2 * (question.maxLength ?? 0));
    default:
      return SCALAR;
  }
}

/**
 * Upload checks of one type-checked expression: every literal `matches` pattern compiles
 * in RE2, and the static cost is within `limit` (docs/model-format.md "Expression cost").
 * Sets the expression's cost and returns the shape of its value (variables pass it on).
 */
export function checkCost(
  expression: Expression,
  program: ParseResult,
  shapeOf: (name: string) => Shape | undefined,
  limit: number,
  problems: ProblemList,
  programs: LiteralPrograms,
): Shape {
  for (const call of matchesCalls(program.ast)) {
    const pattern = literalPattern(call);
    if (pattern === undefined) continue;
    // Compiled once per model: the complete expressions reuse this program (literalProgram).
    const compiled = literalProgram(pattern, programs);
    if (isRegexProblem(compiled)) {
      problems.add(
        'invalid_regex',
        `'${pattern}' is not an RE2 pattern (linear time, no backreferences or lookaround): ${compiled.message}`,
        expression.path,
      );
    }
  }
  const estimate = estimateCost(program.ast, shapeOf, programs);
  expression.cost = Math.ceil(estimate.cost);
  if (estimate.unpriced.length > 0) {
    // A function cel/cost.ts does not price (cel-js 8's optional-type methods, which
    // check but never run here, or one a later cel-js adds): its worst case is unknown.
    problems.add(
      'cost_limit',
      `'${abbreviate(expression.source)}' calls ${estimate.unpriced.join(', ')}, which the cost estimate cannot bound; not allowed in expressions`,
      expression.path,
    );
  } else if (estimate.cost > limit) {
    problems.add(
      'cost_limit',
      `'${abbreviate(expression.source)}' may cost ${formatCost(estimate.cost)} units; the limit expressionCost is ${limit}`,
      expression.path,
    );
  }
  return estimate.shape;
}

const abbreviate = (source: string): string =>
  source.length > 80 ? `${source.slice(0, 77)}...` : source;

const formatCost = (cost: number): string =>
  cost >= 1e15 ? cost.toExponential(2) : Math.ceil(cost).toLocaleString('en-US');
