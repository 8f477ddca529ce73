import type { ASTNode } from '@marcbachmann/cel-js';

/** Comprehension macros whose first argument declares an iteration variable. */
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/**
 * The free names an expression reads (model question/variable keys and unknown
 * names), in first-use order. Iteration variables of comprehensions and
 * `cel.bind` are scoped out so that they never count as dependencies.
 */
export function freeIdentifiers(root: ASTNode): string[] {
  const found = new Set<string>();
  const visit = (node: ASTNode, bound: ReadonlySet<string>): void => {
    switch (node.op) {
      case 'value':
        return;
      case 'id':
        if (!bound.has(node.args)) found.add(node.args);
        return;
      case '.':
      case '.?':
        visit(node.args[0], bound);
        return;
      case 'call':
        for (const arg of node.args[1]) visit(arg, bound);
        return;
      case 'rcall':
        visitReceiverCall(node.args[0], node.args[1], node.args[2], bound);
        return;
      case 'list':
        for (const item of node.args) visit(item, bound);
        return;
      case 'map':
        for (const [key, value] of node.args) {
          visit(key, bound);
          visit(value, bound);
        }
        return;
      case '!_':
      case '-_':
        visit(node.args, bound);
        return;
      default:
        for (const child of node.args) visit(child, bound);
    }
  };

  const visitReceiverCall = (
    method: string,
    receiver: ASTNode,
    args: ASTNode[],
    bound: ReadonlySet<string>,
  ): void => {
    const first = args[0];
    if (
      method === 'bind' &&
      receiver.op === 'id' &&
      receiver.args === 'cel' &&
      first?.op === 'id'
    ) {
      // cel.bind(name, init, body): name is visible in body only.
      if (args[1]) visit(args[1], bound);
      if (args[2]) visit(args[2], new Set([...bound, first.args]));
      return;
    }
    visit(receiver, bound);
    if (COMPREHENSIONS.has(method) && first?.op === 'id' && args.length >= 2) {
      const inner = new Set([...bound, first.args]);
      for (const arg of args.slice(1)) visit(arg, inner);
      return;
    }
    for (const arg of args) visit(arg, bound);
  };

  visit(root, new Set());
  return [...found];
}
