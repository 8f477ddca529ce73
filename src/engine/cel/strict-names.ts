import type { ASTNode } from '@marcbachmann/cel-js';

/** Global functions that fail on a null argument (`dyn`, `type` and `has` do not). */
const STRICT_FUNCTIONS = new Set(['size', 'int', 'uint', 'double', 'string', 'bool', 'bytes']);
const STRICT_BINARY = new Set(['+', '-', '*', '/', '%', '<', '<=', '>', '>=', '[]']);

/**
 * The names an expression reads *strictly*: in a position that every evaluation reaches
 * (no `&&`, `||`, ternary branch, comprehension body or `cel.bind` above it) and where
 * `null` is an evaluation error (an operand of arithmetic or ordering, the receiver of a
 * method, an index, the argument of a conversion, a ternary condition, the right side of
 * `in`). When one of them is null the expression's value is unknown without running it:
 * this spares the thrown-and-caught error cel-js would raise (docs/model-format.md "unknown").
 * Equality, `&&` and `||` are never crossed: `null == 'x'` is false, and `false && error`
 * is false in CEL.
 */
export function strictNames(root: ASTNode): string[] {
  const found = new Set<string>();
  const visit = (node: ASTNode): void => {
    switch (node.op) {
      case 'id':
        found.add(node.args);
        return;
      case '!_':
      case '-_':
        visit(node.args);
        return;
      case '.':
        visit(node.args[0]);
        return;
      case '?:':
        visit(node.args[0]);
        return;
      case 'in':
        visit(node.args[1]);
        return;
      case 'call':
        if (STRICT_FUNCTIONS.has(node.args[0]) && node.args[1].length === 1) visit(node.args[1][0]);
        return;
      case 'rcall': {
        const receiver = node.args[1];
        // cel.bind and namespaced calls: the receiver is not a value.
        if (receiver.op === 'id' && receiver.args === 'cel') return;
        visit(receiver);
        return;
      }
      default:
        if (STRICT_BINARY.has(node.op)) {
          const [left, right] = node.args as [ASTNode, ASTNode];
          visit(left);
          visit(right);
        }
    }
  };
  // The root itself is not strict: `x` alone evaluates to null, not to an error.
  if (node0IsId(root)) return [];
  visit(root);
  return [...found];
}

const node0IsId = (root: ASTNode): boolean => root.op === 'id';
