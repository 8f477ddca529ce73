import type { ASTNode } from '@marcbachmann/cel-js';
import type { LiteralPrograms } from './regex.js';
import { callCost, sizeCost } from './cost-functions.js';
import {
  add,
  elemOf,
  type Estimate,
  join,
  lenOf,
  listShape,
  mul,
  NODE_UNITS,
  SATURATED,
  SCALAR,
  type Shape,
  stringShape,
  UNBOUNDED,
  volume,
} from './cost-shapes.js';
import { methodCost } from './method-costs.js';

export * from './cost-shapes.js';
export { PRICED_FUNCTIONS } from './cost-functions.js';
export { MATCH_UNITS, TIME_UNITS, TIME_ZONE_UNITS } from './cost-weights.js';

/**
 * Static worst-case cost of a CEL expression (docs/model-format.md "Expression cost").
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

/** The estimate of a whole expression, with the calls it may not make. */
export interface ExpressionEstimate extends Estimate {
  /**
   * Functions whose cost this estimator cannot bound (`x.foo()`, `foo()`): the expression
   * is refused at upload (its `cost` is then SATURATED too, so it can never pass a limit).
   */
  readonly unpriced: readonly string[];
}

/** Shapes of the names an expression may read (question and variable keys). */
export type ShapeOfName = (name: string) => Shape | undefined;

const QUANTIFIERS = new Set(['all', 'exists', 'exists_one']);

/**
 * Estimates one expression. Names the function does not know (iteration variables are
 * tracked here) are treated as unbounded, so a mistake errs on refusing.
 */
export function estimateCost(
  root: ASTNode,
  shapeOf: ShapeOfName,
  programs: LiteralPrograms = new Map(),
): ExpressionEstimate {
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
    return methodCost(method, receiver, args, argNodes, programs) ?? refuse(`.${method}()`);
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
