import type { ASTNode } from '@marcbachmann/cel-js';

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
  | { readonly kind: 'list'; readonly len: number; readonly elem: Shape }
  | { readonly kind: 'map'; readonly len: number; readonly key: Shape; readonly elem: Shape };

export interface Estimate {
  readonly cost: number;
  readonly shape: Shape;
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
 * A value whose shape cannot be derived (e.g. `bytes.json()`): as large as anything an
 * evaluation could build, so iterating it is refused rather than under-estimated.
 */
const UNBOUNDED: Shape = Object.freeze({
  kind: 'list',
  len: SATURATED,
  elem: Object.freeze({ kind: 'string', len: SATURATED }),
});

/** Characters/elements touched to read, copy or compare a whole value of this shape. */
export function volume(shape: Shape): number {
  switch (shape.kind) {
    case 'scalar':
      return 1;
    case 'string':
      return Math.max(1, shape.len);
    case 'list':
      return mul(Math.max(1, shape.len), volume(shape.elem));
    case 'map':
      return mul(Math.max(1, shape.len), add(volume(shape.key), volume(shape.elem)));
  }
}

/** The smallest shape containing both (a ternary's branches, a list literal's elements). */
export function join(a: Shape, b: Shape): Shape {
  if (a.kind === 'scalar') return b;
  if (b.kind === 'scalar') return a;
  if (a.kind === 'string' && b.kind === 'string') return stringShape(Math.max(a.len, b.len));
  if (a.kind === 'list' && b.kind === 'list')
    return listShape(Math.max(a.len, b.len), join(a.elem, b.elem));
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
export function estimateCost(root: ASTNode, shapeOf: ShapeOfName): Estimate {
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
      case 'call':
        return callCost(
          node.args[0],
          node.args[1].map((arg) => visit(arg, scope)),
        );
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
    return methodCost(method, receiver, args);
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

  return visit(root, new Map());
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

function callCost(name: string, args: Estimate[]): Estimate {
  const operands = add(0, ...args.map((arg) => arg.cost));
  const [first] = args;
  switch (name) {
    case 'size':
    case 'int':
    case 'uint':
    case 'double':
    case 'bool':
    case 'type':
      // string → number parses the text.
      return { cost: add(operands, NODE_UNITS, first ? lenOf(first.shape) : 0), shape: SCALAR };
    case 'dyn':
      return { cost: add(operands, NODE_UNITS), shape: first?.shape ?? SCALAR };
    case 'string':
    case 'bytes': {
      const len =
        first === undefined ? 0 : first.shape.kind === 'string' ? first.shape.len : SCALAR_TEXT;
      return { cost: add(operands, NODE_UNITS, len), shape: stringShape(len) };
    }
    default:
      return unknownFunction(operands, args);
  }
}

function methodCost(method: string, receiver: Estimate, args: Estimate[]): Estimate {
  const operands = add(receiver.cost, ...args.map((arg) => arg.cost));
  const text = lenOf(receiver.shape);
  const argText = args.reduce((sum, arg) => add(sum, lenOf(arg.shape)), 0);
  if (LINEAR_STRING_METHODS.has(method))
    return { cost: add(operands, text, argText, NODE_UNITS), shape: SCALAR };
  switch (method) {
    case 'size':
      return { cost: add(operands, NODE_UNITS), shape: SCALAR };
    case 'matches':
      // RE2: time linear in the text for a compiled program linear in the pattern.
      return {
        cost: add(operands, mul(add(text, NODE_UNITS), add(argText, NODE_UNITS)), argText),
        shape: SCALAR,
      };
    case 'lowerAscii':
    case 'upperAscii':
    case 'trim':
    case 'substring':
      return { cost: add(operands, text, NODE_UNITS), shape: stringShape(text) };
    case 'split':
      return {
        cost: add(operands, mul(2, text), NODE_UNITS),
        shape: listShape(add(text, NODE_UNITS), stringShape(text)),
      };
    case 'join': {
      const elem = elemOf(receiver.shape);
      const len = add(mul(text, lenOf(elem)), mul(text, argText));
      return { cost: add(operands, len, NODE_UNITS), shape: stringShape(len) };
    }
    default:
      return unknownFunction(operands, [receiver, ...args]);
  }
}

/**
 * A function the table does not list (cel-js extensions such as timestamps): linear
 * work over its arguments, and a result no larger than all of them together.
 */
function unknownFunction(operands: number, args: Estimate[]): Estimate {
  const total = args.reduce((sum, arg) => add(sum, volume(arg.shape)), 0);
  const shape = args.reduce<Shape>((acc, arg) => join(acc, arg.shape), SCALAR);
  return { cost: add(operands, total, NODE_UNITS), shape };
}
