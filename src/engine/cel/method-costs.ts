/*
 * The prices of cel-js's receiver methods (`text.matches(p)`, `list.join()`, the timestamp
 * getters…), with the arity of each: apart from the global functions (cost-functions.ts),
 * which share their weights (cost-weights.ts), because `matches` alone has its own model of
 * re2js's work.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import {
  add,
  elemOf,
  type Estimate,
  jsonShape,
  lenOf,
  listShape,
  mul,
  NODE_UNITS,
  SCALAR,
  stringShape,
} from './cost-shapes.js';
import {
  CASE_UNITS,
  COMPILE_CHAR_UNITS,
  COMPILE_UNITS,
  DECODE_UNITS,
  FOLD_CLASS_FACTOR,
  FOLD_FACTOR,
  JSON_BYTE_UNITS,
  MATCH_CHAR_UNITS,
  MATCH_UNITS,
  TIME_UNITS,
  TIME_ZONE_UNITS,
} from './cost-weights.js';
import {
  COMPUTED_PATTERN_EXTRA,
  COMPUTED_PATTERN_PER_CHAR,
  isRegexProblem,
  literalProgram,
  type LiteralPrograms,
} from './regex.js';

/** Receiver methods on strings whose work is linear in the receiver and argument. */
const LINEAR_STRING_METHODS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'indexOf',
  'lastIndexOf',
]);

/** Timestamp getters (with an optional time zone) and duration getters. */
const TIME_GETTERS = new Set([
  'getDate',
  'getDayOfMonth',
  'getDayOfWeek',
  'getDayOfYear',
  'getFullYear',
  'getHours',
  'getMilliseconds',
  'getMinutes',
  'getMonth',
  'getSeconds',
]);

/** Arity of each receiver method of cel-js 8 priced here (macros are handled before). */
export const METHOD_ARITY: Readonly<Record<string, readonly number[]>> = {
  size: [0],
  contains: [1],
  startsWith: [1],
  endsWith: [1],
  indexOf: [1, 2],
  lastIndexOf: [1, 2],
  lowerAscii: [0],
  upperAscii: [0],
  trim: [0],
  substring: [1, 2],
  matches: [1],
  split: [1, 2],
  join: [0, 1],
  json: [0],
  hex: [0],
  base64: [0],
  string: [0],
  at: [1],
  ...Object.fromEntries([...TIME_GETTERS].map((getter) => [getter, [0, 1]])),
};

/**
 * Receiver methods of cel-js 8, each priced from its implementation (functions.js);
 * undefined for anything else (refused), and for a known method with another arity.
 */
export function methodCost(
  method: string,
  receiver: Estimate,
  args: Estimate[],
  argNodes: ASTNode[],
  programs: LiteralPrograms,
): Estimate | undefined {
  if (!METHOD_ARITY[method]?.includes(args.length)) return undefined;
  const operands = add(receiver.cost, ...args.map((arg) => arg.cost));
  const text = lenOf(receiver.shape);
  const argText = args.reduce((sum, arg) => add(sum, lenOf(arg.shape)), 0);
  if (LINEAR_STRING_METHODS.has(method))
    return { cost: add(operands, text, argText, NODE_UNITS), shape: SCALAR };
  if (TIME_GETTERS.has(method)) {
    // With a time zone: toLocaleString per call (see TIME_ZONE_UNITS).
    const work = args.length === 0 ? TIME_UNITS : add(TIME_ZONE_UNITS, argText);
    return { cost: add(operands, work), shape: SCALAR };
  }
  switch (method) {
    case 'matches':
      return {
        cost: add(operands, matchesCost(text, argNodes[0], argText, programs)),
        shape: SCALAR,
      };
    case 'lowerAscii':
    case 'upperAscii': {
      // toLowerCase/toUpperCase are Unicode-aware: one unit can become up to 3 ('ﬃ' → 'FFI').
      const len = mul(3, text);
      return { cost: add(operands, mul(CASE_UNITS, text), NODE_UNITS), shape: stringShape(len) };
    }
    case 'trim':
    case 'substring':
      return { cost: add(operands, text, NODE_UNITS), shape: stringShape(text) };
    case 'split': {
      // Up to len+1 parts (`''` splits every unit), each a new string.
      const parts = add(text, 1);
      return {
        cost: add(operands, mul(2, text), mul(parts, NODE_UNITS), NODE_UNITS),
        shape: listShape(parts, stringShape(text)),
      };
    }
    case 'join': {
      const elem = elemOf(receiver.shape);
      const len = add(mul(text, lenOf(elem)), mul(text, argText));
      return { cost: add(operands, len, NODE_UNITS), shape: stringShape(len) };
    }
    case 'json':
      return {
        cost: add(operands, mul(text, JSON_BYTE_UNITS), NODE_UNITS),
        shape: jsonShape(text),
      };
    case 'hex':
    case 'base64': {
      // Two hex digits per byte; base64 4 characters per 3 bytes (≤ 2 per byte, + padding).
      const len = add(mul(2, text), 4);
      return { cost: add(operands, len, NODE_UNITS), shape: stringShape(len) };
    }
    case 'string': // bytes.string(): UTF-8 decoding, at most one UTF-16 unit per byte
      return { cost: add(operands, mul(DECODE_UNITS, text), NODE_UNITS), shape: stringShape(text) };
    case 'at':
      return { cost: add(operands, NODE_UNITS), shape: SCALAR };
    default:
      return undefined;
  }
}

/**
 * `text.matches(pattern)` on re2js: per character of the text (one more for setting up the
 * matcher), MATCH_CHAR_UNITS plus MATCH_UNITS per instruction of the compiled program. A
 * literal pattern's program is compiled at upload (literalProgram, shared with the
 * complete expressions), so its real instruction count is used — counted repetitions make
 * it far larger than the pattern (`(?:a?){1000}a{1000}`: 19 characters, 3,002
 * instructions). A computed pattern is compiled at every evaluation and bounded by its
 * length: regex.ts `computedProgram` refuses (the call is unknown) one that could repeat,
 * fold case or use Unicode classes, and one whose program exceeds the size assumed here.
 */
function matchesCost(
  text: number,
  patternNode: ASTNode | undefined,
  patternLength: number,
  programs: LiteralPrograms,
): number {
  const pattern =
    patternNode?.op === 'value' && typeof patternNode.args === 'string'
      ? patternNode.args
      : undefined;
  const literal = pattern === undefined ? undefined : literalProgram(pattern, programs);
  let instructions: number;
  let compile = 0;
  if (literal !== undefined && !isRegexProblem(literal)) {
    const folds = /\(\?[a-zA-Z]*i/.test(pattern ?? '');
    // A folded Unicode or negated class is matched by its (large) folded rune ranges.
    const foldsClass = folds && /\\[pP]|\[\^/.test(pattern ?? '');
    const factor = foldsClass ? FOLD_CLASS_FACTOR : folds ? FOLD_FACTOR : 1;
    instructions = mul(literal.programSize(), factor);
  } else {
    // A computed pattern (or an invalid literal, an upload error of its own).
    instructions = add(mul(COMPUTED_PATTERN_PER_CHAR, patternLength), COMPUTED_PATTERN_EXTRA);
    compile = add(COMPILE_UNITS, mul(COMPILE_CHAR_UNITS, patternLength));
  }
  const perChar = add(MATCH_CHAR_UNITS, mul(MATCH_UNITS, instructions));
  return add(mul(add(text, 1), perChar), compile, NODE_UNITS);
}
