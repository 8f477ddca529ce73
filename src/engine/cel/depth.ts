import type { ASTNode } from '@marcbachmann/cel-js';

/**
 * Nesting depth allowed in one expression: cel-js's parser limit `maxDepth` (its default,
 * set explicitly on both environments so the two cannot drift apart).
 */
export const MAX_EXPRESSION_DEPTH = 250;

/** The message of a too-deep expression: cel-js's own for nested parentheses. */
export const DEPTH_MESSAGE = `Exceeded maxDepth (${MAX_EXPRESSION_DEPTH})`;

/**
 * Whether the AST nests deeper than `limit` nodes on some path from the root. cel-js's
 * `maxDepth` counts parentheses, member accesses, calls and ternaries, but not a chain of
 * unary operators (`!!!…x`, `---…1`) nor a chain of binary operators (`1+1+…`), which a
 * 4 kB expression can nest 4,095 and 2,048 deep; every AST walker after the parse
 * (free names, strict names, cost, RE2 binding, the type check) recurses once per level,
 * so this check runs first and is itself iterative: an explicit stack, no recursion.
 */
export function deeperThan(root: ASTNode, limit: number = MAX_EXPRESSION_DEPTH): boolean {
  const stack: unknown[] = [root];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const item = stack.pop();
    const depth = depths.pop() as number;
    if (Array.isArray(item)) {
      // Argument lists and map entries hold nodes one level down from their owner.
      for (const element of item) {
        stack.push(element);
        depths.push(depth);
      }
      continue;
    }
    if (!isNode(item)) continue;
    if (depth > limit) return true;
    if (item.op === 'value' || item.op === 'id') continue;
    stack.push(item.args);
    depths.push(depth + 1);
  }
  return false;
}

const isNode = (item: unknown): item is ASTNode =>
  typeof item === 'object' &&
  item !== null &&
  typeof (item as { op?: unknown }).op === 'string' &&
  'args' in item;
