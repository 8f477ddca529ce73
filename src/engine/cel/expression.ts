import type { Environment, ParseResult } from '@marcbachmann/cel-js';
import { CostBudget, unlimitedBudget } from './budget.js';
import { useBoundedJson } from './json.js';
import { type LiteralPrograms, useRe2 } from './regex.js';
import { strictNames } from './strict-names.js';

/** The result of an expression that failed at evaluation (docs/model-format.md "unknown"). */
export const UNKNOWN: unique symbol = Symbol('unknown');
export type Unknown = typeof UNKNOWN;

/**
 * What expressions see: every question and variable key bound to its value (null when
 * unset), and the evaluation's cost budget (cel-js reads names through `get`).
 */
export class EvaluationContext extends Map<string, unknown> {
  budget: CostBudget = unlimitedBudget();
}

/**
 * One CEL expression of a model, in one of two forms. A *draft* (`Expression.draft`) is
 * what validation finds: source and upload path; the compile fills in the names it reads
 * and its static cost while checking it. A *complete* expression (`Expression.compile`)
 * is built in one step from a checked draft: parsed and pre-checked in the evaluation
 * environment (so evaluation takes cel-js's checked fast path and never parses), `matches`
 * bound to RE2, `json` to a nesting-bounded parse (json.ts), strict names known. Only complete expressions run; a draft that reaches
 * an evaluation throws (a compile bug), instead of quietly giving unknown.
 */
export class Expression {
  /** Free names read by the expression (filled on a draft by the compile). */
  names: readonly string[] = [];
  /** Static worst-case cost (cel/cost.ts), charged to the budget before every run. */
  cost = 1;

  private constructor(
    readonly source: string,
    readonly path: string,
    private readonly program: ParseResult | undefined,
    /** Names whose null value makes the expression unknown without running it. */
    private readonly strict: readonly string[],
  ) {}

  static draft(source: string, path: string): Expression {
    return new Expression(source, path, undefined, []);
  }

  /**
   * A complete expression from a checked source, its names and its static cost. Throws
   * when the source does not check in `environment` or `matches` cannot be bound to RE2.
   */
  static compile(
    source: string,
    path: string,
    names: readonly string[],
    cost: number,
    environment: Environment,
    programs: LiteralPrograms,
  ): Expression {
    const program = environment.parse(source);
    const checked = program.check();
    if (!checked.valid) throw checked.error ?? new Error(`cannot check ${source}`);
    if (!useRe2(program.ast, programs)) throw new Error('matches cannot be bound to RE2');
    if (!useBoundedJson(program.ast)) throw new Error('json cannot be bounded');
    const known = new Set(names);
    const strict = strictNames(program.ast).filter((name) => known.has(name));
    const expression = new Expression(source, path, program, strict);
    expression.names = names;
    expression.cost = cost;
    return expression;
  }

  /** The complete form of a checked draft. */
  static complete(
    draft: Expression,
    environment: Environment,
    programs: LiteralPrograms,
  ): Expression {
    return Expression.compile(
      draft.source,
      draft.path,
      draft.names,
      draft.cost,
      environment,
      programs,
    );
  }

  /**
   * The value, or UNKNOWN when evaluation fails (null operands, overflow, division by
   * zero…) or when the evaluation's budget cannot pay this expression's cost.
   */
  run(context: EvaluationContext): unknown {
    if (this.program === undefined)
      throw new Error(`draft expression ${this.path} was never compiled`);
    if (!context.budget.charge(this.cost, this.path)) return UNKNOWN;
    for (let i = 0; i < this.strict.length; i++) {
      if (context.get(this.strict[i]) === null) return UNKNOWN;
    }
    try {
      return this.program(context);
    } catch {
      return UNKNOWN;
    }
  }

  /** true / false, or UNKNOWN for a failure or a non-boolean result (e.g. a null bool variable). */
  condition(context: EvaluationContext): boolean | Unknown {
    const value = this.run(context);
    return typeof value === 'boolean' ? value : UNKNOWN;
  }

  /** An int (bigint) or a finite double, else UNKNOWN. */
  number(context: EvaluationContext): number | bigint | Unknown {
    const value = this.run(context);
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    return UNKNOWN;
  }
}

/**
 * Whether an unknown result of `expression` is one no answer can change: every name it
 * reads has a value, and it ran (the budget paid for it), yet it failed (division by
 * zero, overflow…). An assert unknown that way fails (`rule_error`), not pending.
 */
export function failedWithInputs(expression: Expression, context: EvaluationContext): boolean {
  if (context.budget.exhausted.includes(expression.path)) return false;
  return expression.names.every((name) => context.get(name) != null);
}

/** Outcome of a condition where unknown counts as `fallback`. */
export function conditionOr(
  expression: Expression | undefined,
  context: EvaluationContext,
  fallback: boolean,
): boolean {
  if (expression === undefined) return true;
  const value = expression.condition(context);
  return value === UNKNOWN ? fallback : value;
}
