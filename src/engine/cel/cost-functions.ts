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
  COMPUTED_PATTERN_EXTRA,
  COMPUTED_PATTERN_PER_CHAR,
  isRegexProblem,
  literalProgram,
  type LiteralPrograms,
} from './regex.js';

/*
 * Calibrated weights of the cel-js functions whose work is not one unit per element or
 * character (docs/ENGINE.md "Expression cost" has the table and the command,
 * `node bench/cel-cost.bench.mjs`). Each is the slowest time measured for its worst input,
 * on the 2-core development VM under load (load average 4–7), divided by 2.5 ns — the
 * calibration of NODE_UNITS —, rounded up.
 */
/** Longest text a number, bool or bytes conversion to string can produce (`string(-1.2345e-300)`). */
const SCALAR_TEXT = 32;
/** JSON.parse, per byte: every byte may start a value (~85 ns measured for `[[[…]]]`). */
const JSON_BYTE_UNITS = 50;

/**
 * Time-zone getters (`getHours('Europe/Berlin')`): cel-js converts with
 * `toLocaleString('en-US', {timeZone})` on every call: 120–200 µs measured at load 2,
 * up to 540 µs at load 7. 200,000 units (500 µs): one expression can make at most 5 such
 * calls within the default expressionCost.
 */
export const TIME_ZONE_UNITS = 200_000;
/**
 * Making a timestamp or duration, or reading one without a time zone: a Date, a BigInt
 * (0.3–1.4 µs measured per call, with the iteration around it).
 */
export const TIME_UNITS = 25 * NODE_UNITS;
/** duration(text): per character, a component's RegExp match, slices and BigInt arithmetic. */
const DURATION_CHAR_UNITS = 25 * NODE_UNITS;
/** size of a string: cel-js counts code points with a string iterator (~36 ns per unit). */
const CODE_POINT_UNITS = 16;
/** lowerAscii/upperAscii: Unicode case mapping, up to ~140 ns per unit ('İ', 'ﬃ'). */
const CASE_UNITS = 60;
/** string(bytes), bytes.string(): UTF-8 decoding, ~25 ns per byte of non-ASCII text. */
const DECODE_UNITS = 10;
/**
 * `matches` on re2js, per character of text: MATCH_CHAR_UNITS (the matcher's own work per
 * character: 110–420 ns measured for 6-instruction programs such as `^[a-z]+$` at load
 * 3–5, one outlier of 1.1 µs) plus MATCH_UNITS per instruction of the compiled program
 * (30–70 ns per character and instruction for programs of 300–5,000 instructions). A
 * case-folding pattern (`(?i)`) costs up to 3× more per instruction (FOLD_FACTOR): 180 ns
 * measured for folded literals.
 */
export const MATCH_UNITS = 30;
const MATCH_CHAR_UNITS = 10 * NODE_UNITS;
const FOLD_FACTOR = 3;
/**
 * A case-folding pattern with a Unicode class (`\pL`) or a negated one (`[^…]`): the
 * folded class is a long list of rune ranges scanned per character (5.9–7.5 ns per unit
 * measured at FOLD_FACTOR for `(?i)[\pL\pN\pS\pP\pM]{10}z`, against 2.5: × 3, rounded up).
 */
const FOLD_CLASS_FACTOR = 10;
/**
 * Compiling a computed pattern at evaluation (regex.ts `computedProgram` refuses counted
 * repetition, Unicode classes and flags): up to ~8 µs per pattern character measured
 * (`.`, `(a*)*`, `[^a]`), and ~40–100 µs for any pattern.
 */
const COMPILE_CHAR_UNITS = 4_000;
const COMPILE_UNITS = 40_000;

/** Receiver methods on strings whose work is linear in the receiver and argument. */
const LINEAR_STRING_METHODS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'indexOf',
  'lastIndexOf',
]);

/**
 * `size(x)` and `x.size()`: a list's is its length (constant); anything else is counted
 * (CODE_POINT_UNITS per unit of its shape's length): a string's code points (cel-js
 * `stringSize`), a bytes' (constant, but a string's shape cannot tell them apart), and a
 * map's keys, which cel-js lists with `Object.keys` (~32 ns per entry measured at 500
 * entries). Constant only when the type checker says list (the AST is checked at upload:
 * `checkedType`) and the value is not parsed JSON (`cap`: typed a list, `JSON.parse` may
 * give a string or an object).
 */
export function sizeCost(node: ASTNode, value: Estimate): Estimate {
  const type = (node as ASTNode & { checkedType?: { kind?: string } }).checkedType?.kind;
  const constant =
    type === 'list' && !(value.shape.kind === 'list' && value.shape.cap !== undefined);
  const counting = constant ? 0 : mul(CODE_POINT_UNITS, lenOf(value.shape));
  return { cost: add(value.cost, NODE_UNITS, counting), shape: SCALAR };
}

/**
 * Global functions of cel-js 8 (`Environment.getDefinitions()`, functions.js), each priced
 * from its implementation; undefined for anything else (refused). `has` is the macro: its
 * argument is a field selection, visited like any other.
 */
export function callCost(name: string, args: Estimate[]): Estimate | undefined {
  if (args.length !== 1) return undefined;
  const [arg] = args;
  const operands = arg.cost;
  const len = lenOf(arg.shape);
  switch (name) {
    case 'int': // string → number parses the text (int and uint refuse > 20 characters)
    case 'uint':
    case 'double': // trims and lower-cases the text first
    case 'bool':
      return { cost: add(operands, NODE_UNITS, len), shape: SCALAR };
    case 'type':
    case 'has':
      return { cost: add(operands, NODE_UNITS), shape: SCALAR };
    case 'dyn':
      return { cost: add(operands, NODE_UNITS), shape: arg.shape };
    case 'string': {
      // string(bytes) decodes UTF-8: at most one UTF-16 unit per byte.
      const text = arg.shape.kind === 'scalar' ? SCALAR_TEXT : len;
      return { cost: add(operands, NODE_UNITS, mul(DECODE_UNITS, text)), shape: stringShape(text) };
    }
    case 'bytes': {
      // UTF-8 takes up to 3 bytes per UTF-16 unit (4 per surrogate pair).
      const size = mul(3, len);
      return { cost: add(operands, NODE_UNITS, size), shape: stringShape(size) };
    }
    case 'timestamp': // ISO text of 20–30 characters or an int: one Date
      return { cost: add(operands, TIME_UNITS, len), shape: SCALAR };
    case 'duration': {
      // parseDuration: per component an unanchored RegExp exec over the rest of the text,
      // `(\d*\.?\d*)(ns|us|…)`, which backtracks over every start and split of a run of
      // digits: cubic in the text (200 digits and a letter: 17.7 ms, 400: 127 ms, i.e.
      // ~2 ns per step), then slices and BigInt arithmetic per component.
      const backtracking = mul(len, mul(len, len));
      return {
        cost: add(operands, TIME_UNITS, mul(DURATION_CHAR_UNITS, len), backtracking),
        shape: SCALAR,
      };
    }
    default:
      return undefined;
  }
}

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
const METHOD_ARITY: Readonly<Record<string, readonly number[]>> = {
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

/** The functions priced by this module, `name/arity` (`.name/arity` for methods). */
export const PRICED_FUNCTIONS: ReadonlySet<string> = new Set([
  ...['size', 'int', 'uint', 'double', 'bool', 'type', 'has', 'dyn', 'string', 'bytes']
    .concat(['timestamp', 'duration'])
    .map((name) => `${name}/1`),
  ...Object.entries(METHOD_ARITY).flatMap(([method, arities]) =>
    arities.map((arity) => `.${method}/${arity}`),
  ),
  // Macros (comprehensions and cel.bind), priced by the visitor itself.
  ...['all', 'exists', 'exists_one', 'filter'].map((macro) => `.${macro}/2`),
  '.map/2',
  '.map/3',
  '.bind/3',
]);

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
