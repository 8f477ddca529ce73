import type { Environment, ParseResult } from '@marcbachmann/cel-js';

/** The result of an expression that failed at evaluation (MODEL_FORMAT.md "unknown"). */
export const UNKNOWN: unique symbol = Symbol('unknown');
export type Unknown = typeof UNKNOWN;

/** What expressions see: every question and variable key bound to its value (null when unset). */
export type EvaluationContext = Map<string, unknown>;

/**
 * One CEL expression of a model. Created during validation with its source and
 * upload path; `compile` parses and type-checks it and keeps the program, so that
 * evaluation never parses.
 */
export class Expression {
  /** Free names read by the expression (set by compile). */
  names: readonly string[] = [];
  private program: ParseResult | undefined;

  constructor(
    readonly source: string,
    readonly path: string,
  ) {}

  /** Parses in the evaluation environment and pre-checks, so evaluation takes cel-js's checked fast path. */
  attach(environment: Environment): void {
    const program = environment.parse(this.source);
    const checked = program.check();
    if (!checked.valid) throw checked.error ?? new Error(`cannot check ${this.source}`);
    this.program = program;
  }

  /** A copy sharing the compiled program (see compile/compact.ts). */
  clone(): Expression {
    const copy = new Expression(this.source, this.path);
    copy.names = this.names;
    copy.program = this.program;
    return copy;
  }

  /** The value, or UNKNOWN when evaluation fails (null operands, overflow, division by zero…). */
  run(context: EvaluationContext): unknown {
    try {
      return this.program === undefined ? UNKNOWN : this.program(context);
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
