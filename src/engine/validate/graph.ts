import type { Expression } from '../cel/expression.js';
import type { CompiledQuestion, CompiledTrigger, CompiledVariable } from '../model-core.js';
import type { ProblemList } from '../problems.js';

/** An edge of the dependency graph: `from` needs `to` first; `path` is the expression that says so. */
interface Edge {
  readonly to: number;
  readonly path: string;
}

export interface ValueGraph {
  /** Node ids in an order where every node comes after what it reads. */
  readonly order: Int32Array;
  /** Nodes that take part in a cycle (reported as problems). */
  readonly cyclic: ReadonlySet<number>;
}

/**
 * Orders defaults, triggers, visibility and variables (the value phase) by their
 * dependencies, once per model. Nodes: question i → i, variable j → Q + j,
 * trigger k → Q + V + k. A question depends on what its visible_if and
 * default_expr read and on every trigger that sets it; a trigger on what its
 * `when` and `set` expressions read. Iterative DFS in declaration order: the
 * result is deterministic and a long chain cannot overflow the call stack.
 */
export function orderValueGraph(
  questions: readonly CompiledQuestion[],
  variables: readonly CompiledVariable[],
  triggers: readonly CompiledTrigger[],
  nodeOfName: ReadonlyMap<string, number>,
  problems: ProblemList,
): ValueGraph {
  const variableBase = questions.length;
  const triggerBase = variableBase + variables.length;
  const nodeCount = triggerBase + triggers.length;
  const edges: Edge[][] = Array.from({ length: nodeCount }, () => []);
  const addReads = (from: number, expression: Expression | undefined): void => {
    if (expression === undefined) return;
    for (const name of expression.names) {
      const to = nodeOfName.get(name);
      if (to !== undefined) edges[from].push({ to, path: expression.path });
    }
  };
  for (const question of questions) {
    addReads(question.index, question.visibleIf);
    addReads(question.index, question.defaultExpr);
  }
  for (const variable of variables) addReads(variableBase + variable.index, variable.expr);
  for (const trigger of triggers) {
    const node = triggerBase + trigger.index;
    addReads(node, trigger.when);
    for (const target of trigger.targets) {
      addReads(node, target.expr);
      edges[target.question].push({ to: node, path: trigger.when.path });
    }
  }

  const nodeName = (node: number): string => {
    if (node < variableBase) return `questions.${questions[node].key}`;
    if (node < triggerBase) return `variables.${variables[node - variableBase].key}`;
    return `triggers.${triggers[node - triggerBase].key}`;
  };

  const order = new Int32Array(nodeCount);
  let placed = 0;
  const state = new Uint8Array(nodeCount); // 0 new, 1 on the DFS stack, 2 done
  const cyclic = new Set<number>();
  const stack: Array<{ node: number; next: number }> = [];
  for (let root = 0; root < nodeCount; root++) {
    if (state[root] !== 0) continue;
    stack.push({ node: root, next: 0 });
    state[root] = 1;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      const out = edges[frame.node];
      if (frame.next < out.length) {
        const edge = out[frame.next++];
        if (state[edge.to] === 0) {
          state[edge.to] = 1;
          stack.push({ node: edge.to, next: 0 });
        } else if (state[edge.to] === 1) {
          const start = stack.findIndex((f) => f.node === edge.to);
          const members = stack.slice(start).map((f) => f.node);
          for (const member of members) cyclic.add(member);
          const names = [...members, edge.to].map(nodeName).join(' → ');
          problems.add('cycle', `dependency cycle: ${names}`, edge.path);
        }
        continue;
      }
      state[frame.node] = 2;
      order[placed++] = frame.node;
      stack.pop();
    }
  }
  return { order, cyclic };
}
