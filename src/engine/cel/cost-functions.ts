/*
 * The prices of cel-js's global functions (`size(x)`, conversions, `timestamp`, `duration`)
 * and the list of every function the estimator (cost.ts) prices. Receiver methods are
 * priced apart (method-costs.ts); the weights of both are in cost-weights.ts.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { add, type Estimate, lenOf, mul, NODE_UNITS, SCALAR, stringShape } from './cost-shapes.js';
import {
  CODE_POINT_UNITS,
  DECODE_UNITS,
  DURATION_CHAR_UNITS,
  SCALAR_TEXT,
  TIME_UNITS,
} from './cost-weights.js';
import { METHOD_ARITY } from './method-costs.js';

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

/**
 * The functions the estimator prices (here, in method-costs.ts and, the macros, in cost.ts),
 * `name/arity` (`.name/arity` for methods).
 */
export const PRICED_FUNCTIONS: ReadonlySet<string> = new Set([
  ...['size', 'int', 'uint', 'double', 'bool', 'type', 'has', 'dyn', 'string', 'bytes']
    .concat(['timestamp', 'duration'])
    .map((name) => `${name}/1`),
  ...Object.entries(METHOD_ARITY).flatMap(([method, arities]) =>
    arities.map((arity) => `.${method}/${arity}`),
  ),
  // Macros (comprehensions and cel.bind), priced by the visitor itself (cost.ts).
  ...['all', 'exists', 'exists_one', 'filter'].map((macro) => `.${macro}/2`),
  '.map/2',
  '.map/3',
  '.bind/3',
]);
