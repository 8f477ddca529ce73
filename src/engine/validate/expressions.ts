import type { LiteralPrograms } from '../cel/regex.js';
import type { Environment, ParseResult } from '@marcbachmann/cel-js';
import { DEPTH_MESSAGE, deeperThan } from '../cel/depth.js';
import { CEL_TYPE_OF_QUESTION, type QuestionType } from '../cel/environment.js';
import { Expression } from '../cel/expression.js';
import { freeIdentifiers } from '../cel/identifiers.js';
import type { ProblemList } from '../problems.js';

/** What an expression must produce: a bool, a number, a question's value type, or anything. */
export type Expectation = 'bool' | 'number' | 'any' | { readonly question: QuestionType };

const ACCEPTED: Readonly<Record<string, ReadonlySet<string>>> = {
  bool: new Set(['bool', 'dyn']),
  number: new Set(['int', 'double', 'dyn']),
  choice: new Set(['string', 'dyn']),
  text: new Set(['string', 'dyn']),
  boolean: new Set(['bool', 'dyn']),
  integer: new Set(['int', 'dyn']),
  // An int literal is a fine default for a number question (converted to double).
  number_question: new Set(['int', 'double', 'dyn']),
  multi_choice: new Set(['list<string>', 'list<dyn>', 'list', 'dyn']),
};

function accepted(expectation: Expectation): ReadonlySet<string> | undefined {
  if (expectation === 'any') return undefined;
  if (typeof expectation === 'string') return ACCEPTED[expectation];
  return ACCEPTED[expectation.question === 'number' ? 'number_question' : expectation.question];
}

function describe(expectation: Expectation): string {
  if (typeof expectation === 'string')
    return expectation === 'number' ? 'int or double' : expectation;
  return CEL_TYPE_OF_QUESTION[expectation.question];
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0];
}

/**
 * Parses and type-checks a model's expressions in the checking environment
 * (names typed), then attaches each to the evaluation environment. Problems carry
 * the expression's upload path.
 */
export class ExpressionCompiler {
  private readonly parsed = new Map<Expression, ParseResult>();

  /** The model's literal patterns, compiled once: by the cost check, then for its complete expressions. */
  readonly programs: LiteralPrograms = new Map();

  constructor(
    private readonly check: Environment,
    private readonly evaluate: Environment,
    private readonly problems: ProblemList,
  ) {}

  /** Step 1: syntax and names. Unknown names are reported; the expression is then not checked. */
  parse(expression: Expression, knownNames: ReadonlySet<string>): void {
    let program: ParseResult;
    try {
      program = this.check.parse(expression.source);
    } catch (error) {
      this.problems.add('syntax_error', `invalid CEL: ${firstLine(error)}`, expression.path);
      return;
    }
    // Before any recursive walker: cel-js's maxDepth does not count unary or binary
    // chains, and each walker below recurses once per level (depth.ts).
    if (deeperThan(program.ast)) {
      this.problems.add('syntax_error', `invalid CEL: ${DEPTH_MESSAGE}`, expression.path);
      return;
    }
    let names: string[];
    try {
      names = freeIdentifiers(program.ast);
    } catch (error) {
      this.unexpected('syntax_error', 'invalid CEL: cannot analyse', error, expression);
      return;
    }
    const unknown = names.filter((name) => !knownNames.has(name));
    expression.names = names.filter((name) => knownNames.has(name));
    for (const name of unknown) {
      this.problems.add(
        'unknown_name',
        `unknown name '${name}' in '${expression.source}'`,
        expression.path,
      );
    }
    if (unknown.length === 0) this.parsed.set(expression, program);
  }

  /** Step 2 (in dependency order for variables): the type, or undefined after reporting a problem. */
  typeCheck(expression: Expression, expectation: Expectation): string | undefined {
    const program = this.parsed.get(expression);
    if (program === undefined) return undefined;
    let result: ReturnType<ParseResult['check']>;
    try {
      result = program.check();
    } catch (error) {
      this.unexpected('type_error', 'type error', error, expression);
      return undefined;
    }
    if (!result.valid || result.type === undefined) {
      this.problems.add('type_error', `type error: ${firstLine(result.error)}`, expression.path);
      this.parsed.delete(expression);
      return undefined;
    }
    const allowed = accepted(expectation);
    if (allowed !== undefined && !allowed.has(result.type)) {
      this.problems.add(
        'type_error',
        `'${expression.source}' is ${result.type}; ${describe(expectation)} expected`,
        expression.path,
      );
      this.parsed.delete(expression);
      return undefined;
    }
    return result.type;
  }

  /**
   * Runs `walk` (static cost, RE2 patterns…) on the program of an expression that passed
   * steps 1 and 2; undefined when it did not, or when `walk` throws: an unexpected
   * exception becomes a problem on that expression instead of escaping the compile.
   */
  analyse<T>(expression: Expression, walk: (program: ParseResult) => T): T | undefined {
    const program = this.parsed.get(expression);
    if (program === undefined) return undefined;
    try {
      return walk(program);
    } catch (error) {
      this.unexpected('type_error', 'cannot compile', error, expression);
      return undefined;
    }
  }

  /** Step 3: the complete expression for evaluation (only when the model had no problem). */
  complete(draft: Expression): Expression | undefined {
    try {
      return Expression.complete(draft, this.evaluate, this.programs);
    } catch (error) {
      this.problems.add('type_error', `cannot compile: ${firstLine(error)}`, draft.path);
      return undefined;
    }
  }

  /**
   * A walker threw (a compile bug, or a stack overflow that depth.ts should have
   * prevented): a problem on the expression, which is then not checked any further.
   */
  private unexpected(code: string, prefix: string, error: unknown, expression: Expression): void {
    this.problems.add(code, `${prefix}: ${firstLine(error)}`, expression.path);
    this.parsed.delete(expression);
  }

  release(): void {
    this.parsed.clear();
  }
}
