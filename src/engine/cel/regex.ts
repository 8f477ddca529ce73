import type { ASTNode } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';

/**
 * `matches` with RE2 semantics (docs/model-format.md "Expression cost"): re2js is a
 * maintained pure-JS port of RE2 (linear time, no backreferences or lookaround), so a
 * pattern can never backtrack exponentially. cel-js implements `matches` with the
 * backtracking `RegExp` and offers no way to replace a standard overload, so after the
 * type check every `matches` call node of an expression gets our handler (the checked
 * AST's `handle`, which cel-js calls with the evaluated receiver and arguments). A
 * literal pattern is compiled once per model (`literalProgram`): the upload's cost check
 * compiles it, the complete expressions reuse that program; any other pattern is compiled on use,
 * within the bounds the static cost assumed (`computedProgram`).
 */

export type RegexProblem = { message: string };

/** The pattern was refused (compileRe2's other answer). */
export function isRegexProblem(compiled: RE2JS | RegexProblem): compiled is RegexProblem {
  return !(compiled instanceof RE2JS);
}

/** The RE2 program of a pattern, or why RE2 refuses it. */
export function compileRe2(pattern: string): RE2JS | RegexProblem {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    return { message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The program size the static cost (cost.ts `matchesCost`) assumes for a computed pattern
 * of n UTF-16 units: COMPUTED_PATTERN_PER_CHAR × n + COMPUTED_PATTERN_EXTRA instructions.
 * Without counted repetition RE2's program is linear in the pattern: each literal rune,
 * class, anchor or `.` is one instruction, a group adds two (for two characters), `*`
 * two, `+` `?` `|` one (re2js `Parser.calcSize`), and the compiler adds the match, the
 * failure and group 0's two captures. Checked at evaluation (`computedProgram`), so the
 * estimate holds even if this reasoning missed a case.
 */
export const COMPUTED_PATTERN_PER_CHAR = 2;
export const COMPUTED_PATTERN_EXTRA = 8;

/**
 * Why a computed pattern is not compiled at evaluation, or undefined. Its static cost
 * (cost.ts `matchesCost`) assumes a program linear in the pattern, compiled in linear
 * time, so these are refused (conservatively: a `{` anywhere but in an escape): counted
 * repetition (`x{1000}` multiplies the program by 1,000), case folding and other flags
 * (`(?i)[\x{80}-\x{10FFFF}]` takes ~10 ms to compile), Unicode classes (`\pL`: ~300 µs
 * each) and `\Q…\E` quoting (not followed by this scan).
 */
export function computedPatternProblem(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    const next = pattern[i + 1];
    if (char === '{') return 'a computed pattern may not use counted repetition ({n,m})';
    if (char === '(' && next === '?') {
      const group = pattern.slice(i + 2, i + 4);
      if (!group.startsWith(':') && !group.startsWith('<') && group !== 'P<')
        return 'a computed pattern may not set flags ((?i) …)';
    }
    if (char !== '\\') continue;
    if (next === 'p' || next === 'P' || next === 'Q')
      return `a computed pattern may not use \\${next}`;
    i++; // the escaped character
  }
  return undefined;
}

/**
 * A pattern computed at evaluation, compiled only when its program stays within what the
 * static cost assumed: computedPatternProblem, then at most COMPUTED_PATTERN_PER_CHAR
 * instructions per character plus COMPUTED_PATTERN_EXTRA.
 */
export function computedProgram(pattern: string): RE2JS | RegexProblem {
  const problem = computedPatternProblem(pattern);
  if (problem !== undefined) return { message: problem };
  const program = compileRe2(pattern);
  if (isRegexProblem(program)) return program;
  const limit = COMPUTED_PATTERN_PER_CHAR * pattern.length + COMPUTED_PATTERN_EXTRA;
  if (program.programSize() > limit)
    return { message: `a computed pattern compiles to more than ${limit} instructions` };
  return program;
}

/**
 * Literal patterns of one model, compiled (programs are immutable; each `matcher` call has
 * its own state): one map per validation or revival of a model (validate/expressions.ts
 * ExpressionCompiler, transfer.ts), not a table every tenant's models share (ADR 0124).
 */
export type LiteralPrograms = Map<string, RE2JS | RegexProblem>;

/** compileRe2 for a literal pattern of a model: compiled once per model, then shared. */
export function literalProgram(pattern: string, programs: LiteralPrograms): RE2JS | RegexProblem {
  let program = programs.get(pattern);
  if (program === undefined) {
    program = compileRe2(pattern);
    programs.set(pattern, program);
  }
  return program;
}

/** A call node of a checked AST: `handle` is the function cel-js calls with its values. */
export type MatchesNode = ASTNode & { handle?: unknown };

/** Every `x.matches(p)` call of an AST (the receiver form is the only one cel-js has). */
export function matchesCalls(root: ASTNode): MatchesNode[] {
  return receiverCalls(root, 'matches');
}

/** Every `x.<method>(…)` call node of an AST. */
export function receiverCalls(root: ASTNode, method: string): MatchesNode[] {
  const found: MatchesNode[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const ast = node as ASTNode;
    if (typeof ast.op !== 'string') return;
    if (ast.op === 'rcall' && ast.args[0] === method) found.push(ast);
    if (ast.op !== 'value' && ast.op !== 'id') visit(ast.args);
  };
  visit(root);
  return found;
}

/** The literal pattern of a `matches` call, when it is a string literal. */
export function literalPattern(call: ASTNode): string | undefined {
  if (call.op !== 'rcall') return undefined;
  const pattern = call.args[2][0];
  return pattern?.op === 'value' && typeof pattern.args === 'string' ? pattern.args : undefined;
}

class RegexError extends Error {}

/**
 * Points every `matches` node of a checked AST at RE2. Returns false when the node does
 * not look as expected (a cel-js upgrade changed its internals): the expression is then
 * refused rather than left on the backtracking engine.
 */
export function useRe2(root: ASTNode, programs: LiteralPrograms): boolean {
  const calls = matchesCalls(root);
  for (const call of calls) {
    if (typeof call.handle !== 'function') return false;
    const literal = literalPattern(call);
    const fixed = literal === undefined ? undefined : literalProgram(literal, programs);
    if (fixed !== undefined && !(fixed instanceof RE2JS)) return false;
    call.handle = (values: unknown[]): boolean => {
      const [text, pattern] = values;
      if (typeof text !== 'string' || typeof pattern !== 'string')
        throw new RegexError('matches needs a string and a pattern');
      const program = fixed ?? computedProgram(pattern);
      if (!(program instanceof RE2JS)) throw new RegexError(program.message);
      return program.matcher(text).find();
    };
  }
  return true;
}
