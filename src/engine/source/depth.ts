/**
 * Shape checks of a parsed document, all iterative so that a hostile document cannot
 * blow the stack. Depth counts containers: `{}` is 1, `{a: [1]}` is 2.
 */

/** Nesting depth of a JSON text, scanned before JSON.parse allocates anything. */
export function jsonTextDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return false;
}

export type TreeShape =
  | { kind: 'ok'; nodes: number; chars: number; shared: boolean }
  | { kind: 'too_deep' }
  | { kind: 'too_many_nodes'; nodes: number }
  | { kind: 'too_large'; chars: number }
  | { kind: 'cycle' };

interface Frame {
  node: object;
  children: unknown[];
  next: number;
  nodes: number;
  /** Characters of text in the subtree: every key and every scalar, as written out. */
  chars: number;
  depth: number; // container depth of the deepest descendant seen, relative to this node
}

const childrenOf = (node: object): unknown[] => (Array.isArray(node) ? node : Object.values(node));
const isContainer = (value: unknown): value is object =>
  typeof value === 'object' && value !== null;
/** Characters of the keys of a mapping (a list has none). */
const keyChars = (node: object): number => {
  if (Array.isArray(node)) return 0;
  let chars = 0;
  for (const key of Object.keys(node)) chars += key.length;
  return chars;
};
/** Characters of a scalar; O(1), so an aliased megabyte string costs nothing to count. */
const scalarChars = (value: unknown): number =>
  typeof value === 'string' ? value.length : String(value).length;

const frameOf = (node: object): Frame => ({
  node,
  children: childrenOf(node),
  next: 0,
  nodes: 1,
  chars: keyChars(node),
  depth: 1,
});

/**
 * Depth, node count and text size of the tree a parsed value stands for. YAML aliases make
 * the value a graph whose shared parts repeat in the tree; sizes are memoized per object
 * (and a string's size is its length), so a billion-laughs document, or one anchored
 * megabyte string used a hundred times, is measured in time linear in its text, never
 * expanded. `maxChars` bounds the characters of every key and scalar once expanded.
 */
export function measureTree(
  root: unknown,
  maxDepth: number,
  maxNodes: number,
  maxChars = Number.POSITIVE_INFINITY,
): TreeShape {
  if (!isContainer(root)) {
    const chars = scalarChars(root);
    if (chars > maxChars) return { kind: 'too_large', chars };
    return { kind: 'ok', nodes: 1, chars, shared: false };
  }
  if (maxDepth < 1) return { kind: 'too_deep' };
  const done = new Map<object, { nodes: number; chars: number; depth: number }>();
  const onPath = new Set<object>([root]);
  const stack: Frame[] = [frameOf(root)];
  let shared = false;
  for (;;) {
    const frame = stack[stack.length - 1];
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++];
      if (!isContainer(child)) {
        frame.nodes += 1;
        frame.chars += scalarChars(child);
        if (frame.chars > maxChars) return { kind: 'too_large', chars: frame.chars };
        continue;
      }
      if (onPath.has(child)) return { kind: 'cycle' };
      const known = done.get(child);
      if (known !== undefined) {
        shared = true;
        if (stack.length + known.depth > maxDepth) return { kind: 'too_deep' };
        frame.nodes += known.nodes;
        frame.chars += known.chars;
        frame.depth = Math.max(frame.depth, known.depth + 1);
        if (frame.nodes > maxNodes) return { kind: 'too_many_nodes', nodes: frame.nodes };
        if (frame.chars > maxChars) return { kind: 'too_large', chars: frame.chars };
        continue;
      }
      if (stack.length + 1 > maxDepth) return { kind: 'too_deep' };
      onPath.add(child);
      stack.push(frameOf(child));
      continue;
    }
    stack.pop();
    onPath.delete(frame.node);
    done.set(frame.node, { nodes: frame.nodes, chars: frame.chars, depth: frame.depth });
    if (frame.nodes > maxNodes) return { kind: 'too_many_nodes', nodes: frame.nodes };
    if (frame.chars > maxChars) return { kind: 'too_large', chars: frame.chars };
    const parent = stack[stack.length - 1];
    if (parent === undefined) return { kind: 'ok', nodes: frame.nodes, chars: frame.chars, shared };
    parent.nodes += frame.nodes;
    parent.chars += frame.chars;
    parent.depth = Math.max(parent.depth, frame.depth + 1);
  }
}

/**
 * A copy in which every alias is its own subtree, so that later mutation or serialization
 * sees a plain tree. Only call after measureTree has bounded the size.
 */
export function expandTree(root: unknown): unknown {
  if (!isContainer(root)) return root;
  const copyOf = (value: object): object => (Array.isArray(value) ? [] : {});
  const top = copyOf(root);
  const work: Array<[object, object]> = [[root, top]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [source, target] = item;
    for (const [key, value] of Object.entries(source)) {
      let copy: unknown = value;
      if (isContainer(value)) {
        const child = copyOf(value);
        work.push([value, child]);
        copy = child;
      }
      // a `__proto__` key must stay data, never become the prototype
      if (key === '__proto__') {
        Object.defineProperty(target, key, {
          value: copy,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        (target as Record<string, unknown>)[key] = copy;
      }
    }
  }
  return top;
}
