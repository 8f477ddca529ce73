import type { Environment, ParseResult } from '@marcbachmann/cel-js';
import { CostBudget, unlimitedBudget } from './budget.js';
import { useRe2 } from './regex.js';
import { strictNames } from './strict-names.js';

/** The result of an expression that failed at evaluation (MODEL_FORMAT.md "unknown"). */
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
 * One CEL expression of a model. Created during validation with its source and
 * upload path; `compile` parses and type-checks it and keeps the program, so that
 * evaluation never parses.
 */
export class Expression {
  /** Free names read by the expression (set by compile). */
  names: readonly string[] = [];
  /** Static worst-case cost (cel/cost.ts), charged to the budget before every run. */
  cost = 1;
  private program: ParseResult | undefined;
  /** Names whose null value makes the expression unknown without running it. */
  private strict: readonly string[] = [];

  constructor(
    readonly source: string,
    readonly path: string,
  ) {}

  /**
   * Parses in the evaluation environment, pre-checks (so evaluation takes cel-js's checked
   * fast path) and points `matches` at RE2. Throws when any of that fails.
   */
  attach(environment: Environment): void {
    const program = environment.parse(this.source);
    const checked = program.check();
    if (!checked.valid) throw checked.error ?? new Error(`cannot check ${this.source}`);
    if (!useRe2(program.ast)) throw new Error('matches cannot be bound to RE2');
    const known = new Set(this.names);
    this.strict = strictNames(program.ast).filter((name) => known.has(name));
    this.program = program;
  }

  /**
   * An expression complete in one step, from a source already validated and costed by a
   * compile (engine/transfer.ts): parsed and checked in `environment`, ready to run.
   */
  static revive(
    source: string,
    path: string,
    names: readonly string[],
    cost: number,
    environment: Environment,
  ): Expression {
    const expression = new Expression(source, path);
    expression.names = names;
    expression.cost = cost;
    expression.attach(environment);
    return expression;
  }

  /** A copy sharing the compiled program (see compile/compact.ts). */
  clone(): Expression {
    const copy = new Expression(this.source, this.path);
    copy.names = this.names;
    copy.cost = this.cost;
    copy.program = this.program;
    copy.strict = this.strict;
    return copy;
  }

  /**
   * The value, or UNKNOWN when evaluation fails (null operands, overflow, division by
   * zero…) or when the evaluation's budget cannot pay this expression's cost.
   */
  run(context: EvaluationContext): unknown {
    if (this.program === undefined) throw new Error(`expression ${this.path} was never compiled`);
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
