import type { ASTNode } from '@marcbachmann/cel-js';
import {
  COMPUTED_PATTERN_EXTRA,
  COMPUTED_PATTERN_PER_CHAR,
  isRegexProblem,
  literalProgram,
} from './regex.js';
import { JSON_MAX_DEPTH } from './json.js';

/**
 * Static worst-case cost of a CEL expression (MODEL_FORMAT.md "Expression cost").
 *
 * Modelled on cel-go's `checker/cost.go` (as Kubernetes applies it to CRD validation
 * rules): every value carries an upper bound of its size, every node an upper bound of
 * the work it does, and a comprehension multiplies its step's cost by the largest size
 * its range can have. Differences: sizes are tracked as *shapes* (a list's length and the
 * shape of its elements, recursively), so nested lists and list concatenation under
 * `cel.bind` are bounded exactly; and the unit is "one node visited or one element or
 * character touched" (see docs/ENGINE.md "Expression cost" for the calibration).
 *
 * Every bound is an over-approximation: a value never has more elements or characters
 * than its shape says, and an evaluation never visits more than `cost` units. Numbers
 * saturate at `SATURATED`, so the arithmetic cannot overflow into nonsense.
 */

/** An upper bound of a value's size. `len` counts list/map entries or UTF-16 code units. */
export type Shape =
  | { readonly kind: 'scalar' }
  | { readonly kind: 'string'; readonly len: number }
  | {
      readonly kind: 'list';
      readonly len: number;
      readonly elem: Shape;
      /** When set: the whole value touches at most this many units (`volume`), however nested. */
      readonly cap?: number;
    }
  | { readonly kind: 'map'; readonly len: number; readonly key: Shape; readonly elem: Shape };

export interface Estimate {
  readonly cost: number;
  readonly shape: Shape;
}

/** The estimate of a whole expression, with the calls it may not make. */
export interface ExpressionEstimate extends Estimate {
  /**
   * Functions whose cost this estimator cannot bound (`x.foo()`, `foo()`): the expression
   * is refused at upload (its `cost` is then SATURATED too, so it can never pass a limit).
   */
  readonly unpriced: readonly string[];
}

export const SATURATED = 1e18;
/**
 * Units charged per AST node visited (elements and characters touched cost 1 each). A
 * cel-js node visit costs 20–100× a character comparison (measured, docs/ENGINE.md
 * "Expression cost"), so it is weighted: with this weight one unit stays under ~2.5 ns
 * on the development VM and the 10,000,000-unit budget under ~25 ms.
 */
export const NODE_UNITS = 20;
const sat = (n: number): number => (n > SATURATED || Number.isNaN(n) ? SATURATED : n);
const add = (...terms: number[]): number => sat(terms.reduce((sum, term) => sum + term, 0));
const mul = (a: number, b: number): number => sat(a * b);

export const SCALAR: Shape = Object.freeze({ kind: 'scalar' });
export const stringShape = (len: number): Shape => ({ kind: 'string', len: sat(len) });
export const listShape = (len: number, elem: Shape): Shape => ({
  kind: 'list',
  len: sat(len),
  elem,
});

/** Longest text a number, bool or bytes conversion to string can produce (`string(-1.2345e-300)`). */
const SCALAR_TEXT = 32;
/**
 * A value whose shape cannot be derived (a name with no known shape): as large as anything
 * an evaluation could build, so iterating it is refused rather than under-estimated. A
 * list shape bounds a string or a map as well (`join`), so it is sound whatever the value.
 */
export const UNBOUNDED: Shape = Object.freeze({
  kind: 'list',
  len: SATURATED,
  elem: Object.freeze({ kind: 'string', len: SATURATED }),
});

/*
 * Calibrated weights of the cel-js functions whose work is not one unit per element or
 * character (docs/ENGINE.md "Expression cost" has the table and the command,
 * `node bench/cel-cost.bench.mjs`). Each is the slowest time measured for its worst input,
 * on the 2-core development VM under load (load average 4–7), divided by 2.5 ns — the
 * calibration of NODE_UNITS —, rounded up.
 */
/**
 * Comparing (`==`, `in`) a list or map that is itself an element of a list or map: cel-js
 * finds the equality overload and recurses per nested container (200 ns–1 µs measured for
 * `[[], …]`, `[{"": 1}, …]` and `[[[…]]]`).
 */
export const NESTED_UNITS = 5 * NODE_UNITS;
/** JSON.parse, per byte: every byte may start a value (~85 ns measured for `[[[…]]]`). */
const JSON_BYTE_UNITS = 50;

/**
 * The value `JSON.parse` can make of `bytes` bytes (`bytes.json()`), whatever its kind:
 * every list or map in it, at any depth, has at most `bytes` entries (each takes at least
 * one byte: `[1,1]`, `{"":1}`), every string at most `bytes` UTF-16 units (each unit comes
 * from at least one byte: a character, an escape or a UTF-8 sequence; invalid bytes decode
 * to one U+FFFD each). The whole value, or any part, has a volume of at most
 * `bytes × NESTED_UNITS` (`cap`; by induction: a scalar or string takes at least as many
 * bytes as its volume, a container at least one byte per entry, its brackets and commas,
 * beside its entries'), so comparing it is bounded although its shape is deep. One list
 * shape bounds all kinds at once (`join`: a list shape also bounds a string's or a map's
 * length, and its element a map's keys). Lists and maps nest at most JSON_MAX_DEPTH
 * levels (json.ts refuses deeper documents at evaluation), so below them are only
 * strings and scalars.
 */
export function jsonShape(bytes: number, depth = JSON_MAX_DEPTH): Shape {
  if (depth <= 0) return stringShape(bytes);
  const len = sat(bytes);
  return { kind: 'list', len, elem: jsonShape(len, depth - 1), cap: mul(len, NESTED_UNITS) };
}

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
 * Compiling a computed pattern at evaluation (regex.ts `computedProgram` refuses counted
 * repetition, Unicode classes and flags): up to ~8 µs per pattern character measured
 * (`.`, `(a*)*`, `[^a]`), and ~40–100 µs for any pattern.
 */
const COMPILE_CHAR_UNITS = 4_000;
const COMPILE_UNITS = 40_000;

/**
 * Characters/elements touched to read, copy or compare a whole value of this shape (a
 * container nested in another counts NESTED_UNITS more).
 */
export function volume(shape: Shape): number {
  switch (shape.kind) {
    case 'scalar':
      return 1;
    case 'string':
      return Math.max(1, shape.len);
    case 'list':
      // The cap first: a capped shape may be deep (jsonShape), its product meaningless.
      if (shape.cap !== undefined) return Math.max(1, shape.cap);
      return mul(Math.max(1, shape.len), add(volume(shape.elem), nested(shape.elem)));
    case 'map':
      return mul(
        Math.max(1, shape.len),
        add(volume(shape.key), volume(shape.elem), nested(shape.elem)),
      );
  }
}

/** The extra work of comparing an element that is itself a container (NESTED_UNITS). */
const nested = (elem: Shape): number =>
  elem.kind === 'list' || elem.kind === 'map' ? NESTED_UNITS : 0;

/** The smallest shape containing both (a ternary's branches, a list literal's elements). */
export function join(a: Shape, b: Shape): Shape {
  if (a.kind === 'scalar') return b;
  if (b.kind === 'scalar') return a;
  if (a.kind === 'string' && b.kind === 'string') return stringShape(Math.max(a.len, b.len));
  if (a.kind === 'list' && b.kind === 'list') {
    const [len, elem] = [Math.max(a.len, b.len), join(a.elem, b.elem)];
    // Two capped values (parsed JSON) stay capped: either one is at most the larger cap.
    if (a.cap === undefined || b.cap === undefined) return listShape(len, elem);
    return { kind: 'list', len, elem, cap: Math.max(a.cap, b.cap) };
  }
  if (a.kind === 'map' && b.kind === 'map') {
    return {
      kind: 'map',
      len: Math.max(a.len, b.len),
      key: join(a.key, b.key),
      elem: join(a.elem, b.elem),
    };
  }
  // Different kinds (a `dyn` mix): bound both ways at once.
  return listShape(Math.max(lenOf(a), lenOf(b)), join(elemOf(a), elemOf(b)));
}

const lenOf = (shape: Shape): number => (shape.kind === 'scalar' ? 0 : shape.len);
const elemOf = (shape: Shape): Shape =>
  shape.kind === 'list' || shape.kind === 'map' ? shape.elem : SCALAR;

/** Shapes of the names an expression may read (question and variable keys). */
export type ShapeOfName = (name: string) => Shape | undefined;

const QUANTIFIERS = new Set(['all', 'exists', 'exists_one']);

/** Receiver methods on strings whose work is linear in the receiver and argument. */
const LINEAR_STRING_METHODS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'indexOf',
  'lastIndexOf',
]);

/**
 * Estimates one expression. Names the function does not know (iteration variables are
 * tracked here) are treated as unbounded, so a mistake errs on refusing.
 */
export function estimateCost(root: ASTNode, shapeOf: ShapeOfName): ExpressionEstimate {
  const unpriced: string[] = [];
  /** A call the tables do not price: recorded, and as expensive and large as can be. */
  const refuse = (call: string): Estimate => {
    if (!unpriced.includes(call)) unpriced.push(call);
    return { cost: SATURATED, shape: UNBOUNDED };
  };
  const visit = (node: ASTNode, scope: ReadonlyMap<string, Shape>): Estimate => {
    switch (node.op) {
      case 'value':
        return { cost: NODE_UNITS, shape: literalShape(node.args) };
      case 'id':
        return {
          cost: NODE_UNITS,
          shape: scope.get(node.args) ?? shapeOf(node.args) ?? UNBOUNDED,
        };
      case '.':
      case '.?': {
        const target = visit(node.args[0], scope);
        return { cost: add(target.cost, NODE_UNITS), shape: elemOf(target.shape) };
      }
      case '[]':
      case '[?]': {
        const [target, index] = [visit(node.args[0], scope), visit(node.args[1], scope)];
        // A map lookup hashes (or compares) the key.
        return {
          cost: add(target.cost, index.cost, volume(index.shape), NODE_UNITS),
          shape: elemOf(target.shape),
        };
      }
      case 'list': {
        let cost = NODE_UNITS;
        let elem: Shape = SCALAR;
        for (const item of node.args) {
          const estimate = visit(item, scope);
          cost = add(cost, estimate.cost);
          elem = join(elem, estimate.shape);
        }
        return { cost, shape: listShape(node.args.length, elem) };
      }
      case 'map': {
        let cost = NODE_UNITS;
        let key: Shape = SCALAR;
        let elem: Shape = SCALAR;
        for (const [k, v] of node.args) {
          const [ke, ve] = [visit(k, scope), visit(v, scope)];
          cost = add(cost, ke.cost, ve.cost, volume(ke.shape));
          key = join(key, ke.shape);
          elem = join(elem, ve.shape);
        }
        return { cost, shape: { kind: 'map', len: node.args.length, key, elem } };
      }
      case '!_':
      case '-_': {
        const operand = visit(node.args, scope);
        return { cost: add(operand.cost, NODE_UNITS), shape: SCALAR };
      }
      case '?:': {
        const [condition, left, right] = node.args.map((arg) => visit(arg, scope));
        return {
          cost: add(condition.cost, Math.max(left.cost, right.cost), NODE_UNITS),
          shape: join(left.shape, right.shape),
        };
      }
      case 'call': {
        const name = node.args[0];
        const args = node.args[1].map((arg) => visit(arg, scope));
        if (name === 'size' && args.length === 1) return sizeCost(node.args[1][0], args[0]);
        return callCost(name, args) ?? refuse(`${name}()`);
      }
      case 'rcall':
        return receiverCall(node.args[0], node.args[1], node.args[2], scope);
      default:
        return binary(node.op, visit(node.args[0], scope), visit(node.args[1], scope));
    }
  };

  const receiverCall = (
    method: string,
    receiverNode: ASTNode,
    argNodes: ASTNode[],
    scope: ReadonlyMap<string, Shape>,
  ): Estimate => {
    const first = argNodes[0];
    if (method === 'bind' && receiverNode.op === 'id' && receiverNode.args === 'cel') {
      if (first?.op !== 'id' || argNodes.length !== 3) return { cost: SATURATED, shape: UNBOUNDED };
      // cel.bind(name, init, body): init is evaluated once, body sees its shape.
      const init = visit(argNodes[1], scope);
      const body = visit(argNodes[2], new Map([...scope, [first.args, init.shape]]));
      return { cost: add(init.cost, body.cost, NODE_UNITS), shape: body.shape };
    }
    const receiver = visit(receiverNode, scope);
    const isComprehension =
      (QUANTIFIERS.has(method) || method === 'map' || method === 'filter') &&
      first?.op === 'id' &&
      argNodes.length >= 2;
    if (isComprehension)
      return comprehension(method, receiver, first.args, argNodes.slice(1), scope);
    const args = argNodes.map((arg) => visit(arg, scope));
    if (method === 'size' && args.length === 0) return sizeCost(receiverNode, receiver);
    return methodCost(method, receiver, args, argNodes) ?? refuse(`.${method}()`);
  };

  const comprehension = (
    method: string,
    range: Estimate,
    variable: string,
    bodies: ASTNode[],
    scope: ReadonlyMap<string, Shape>,
  ): Estimate => {
    const count = lenOf(range.shape);
    // A map is iterated over its keys.
    const element = range.shape.kind === 'map' ? range.shape.key : elemOf(range.shape);
    const inner = new Map([...scope, [variable, element]]);
    const steps = bodies.map((body) => visit(body, inner));
    // Per element: the step (and filter), the iteration itself, the accumulator update.
    const perElement = add(...steps.map((step) => step.cost), 2 * NODE_UNITS);
    const cost = add(range.cost, mul(count, perElement), NODE_UNITS);
    if (QUANTIFIERS.has(method)) return { cost, shape: SCALAR };
    if (method === 'filter') return { cost, shape: listShape(count, element) };
    const transform = steps[steps.length - 1];
    return { cost, shape: listShape(count, transform.shape) };
  };

  const estimate = visit(root, new Map());
  return unpriced.length === 0
    ? { ...estimate, unpriced }
    : { cost: SATURATED, shape: UNBOUNDED, unpriced };
}

/**
 * `size(x)` and `x.size()`: a list's or map's is its length, a string's is counted code
 * point by code point (cel-js `stringSize`), so is a bytes' (constant, but a string's shape
 * cannot tell them apart). Container only when the type checker says so (the AST is
 * checked at upload: `checkedType`) and the value is not parsed JSON (`cap`: typed a map,
 * `JSON.parse` may give a string, whose `map.size()` lists its indexes with Object.keys).
 */
function sizeCost(node: ASTNode, value: Estimate): Estimate {
  const type = (node as ASTNode & { checkedType?: { kind?: string } }).checkedType?.kind;
  const container =
    (type === 'list' || type === 'map') &&
    !(value.shape.kind === 'list' && value.shape.cap !== undefined);
  const counting = container ? 0 : mul(CODE_POINT_UNITS, lenOf(value.shape));
  return { cost: add(value.cost, NODE_UNITS, counting), shape: SCALAR };
}

function literalShape(value: unknown): Shape {
  if (typeof value === 'string') return stringShape(value.length);
  if (value instanceof Uint8Array) return stringShape(value.length);
  return SCALAR;
}

function binary(op: string, left: Estimate, right: Estimate): Estimate {
  const operands = add(left.cost, right.cost);
  switch (op) {
    case '+':
      if (left.shape.kind === 'string' || right.shape.kind === 'string')
        return {
          cost: add(operands, lenOf(left.shape), lenOf(right.shape), NODE_UNITS),
          shape: stringShape(add(lenOf(left.shape), lenOf(right.shape))),
        };
      if (left.shape.kind === 'list' || right.shape.kind === 'list')
        return {
          cost: add(operands, lenOf(left.shape), lenOf(right.shape), NODE_UNITS),
          shape: listShape(
            add(lenOf(left.shape), lenOf(right.shape)),
            join(elemOf(left.shape), elemOf(right.shape)),
          ),
        };
      return { cost: add(operands, NODE_UNITS), shape: SCALAR };
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      // Deep comparison touches at most the smaller value wholly; bound by the larger.
      return {
        cost: add(operands, Math.max(volume(left.shape), volume(right.shape))),
        shape: SCALAR,
      };
    case 'in':
      // Each element (or key) of the right side compared with the left side.
      return {
        cost: add(operands, mul(Math.max(1, lenOf(right.shape)), volume(left.shape))),
        shape: SCALAR,
      };
    default:
      // && || - * / %: constant work on the operands' values.
      return { cost: add(operands, NODE_UNITS), shape: SCALAR };
  }
}

/**
 * Global functions of cel-js 8 (`Environment.getDefinitions()`, functions.js), each priced
 * from its implementation; undefined for anything else (refused). `has` is the macro: its
 * argument is a field selection, visited like any other.
 */
function callCost(name: string, args: Estimate[]): Estimate | undefined {
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
function methodCost(
  method: string,
  receiver: Estimate,
  args: Estimate[],
  argNodes: ASTNode[],
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
      return { cost: add(operands, matchesCost(text, argNodes[0], argText)), shape: SCALAR };
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
 * complete expression), so its real instruction count is used — counted repetitions make
 * it far larger than the pattern (`(?:a?){1000}a{1000}`: 19 characters, 3,002
 * instructions). A computed pattern is compiled at every evaluation and bounded by its
 * length: regex.ts `computedProgram` refuses (the call is unknown) one that could repeat,
 * fold case or use Unicode classes, and one whose program exceeds the size assumed here.
 */
function matchesCost(
  text: number,
  patternNode: ASTNode | undefined,
  patternLength: number,
): number {
  const pattern =
    patternNode?.op === 'value' && typeof patternNode.args === 'string'
      ? patternNode.args
      : undefined;
  const literal = pattern === undefined ? undefined : literalProgram(pattern);
  let instructions: number;
  let compile = 0;
  if (literal !== undefined && !isRegexProblem(literal)) {
    const folds = /\(\?[a-zA-Z]*i/.test(pattern ?? '');
    instructions = mul(literal.programSize(), folds ? FOLD_FACTOR : 1);
  } else {
    // A computed pattern (or an invalid literal, an upload error of its own).
    instructions = add(mul(COMPUTED_PATTERN_PER_CHAR, patternLength), COMPUTED_PATTERN_EXTRA);
    compile = add(COMPILE_UNITS, mul(COMPILE_CHAR_UNITS, patternLength));
  }
  const perChar = add(MATCH_CHAR_UNITS, mul(MATCH_UNITS, instructions));
  return add(mul(add(text, 1), perChar), compile, NODE_UNITS);
}
