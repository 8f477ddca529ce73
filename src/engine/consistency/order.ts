/**
 * Static variable order: questions that share a constraint should sit close in the
 * diagram (its width grows with how many constraints are "open" across a layer).
 * FORCE (Aloul, Markov, Sakallah, "FORCE: a fast and easy-to-implement
 * variable-ordering heuristic", GLSVLSI 2003): each question moves to the mean of the
 * centres of gravity of its constraints, repeated; started from the declaration order
 * and from a breadth-first (Cuthill–McKee style) order, the order with the smallest
 * total span (sum over constraints of last − first position) wins.
 */
export function orderQuestions(
  questionCount: number,
  edges: ReadonlyArray<readonly number[]>,
): number[] {
  const useful = edges.filter((edge) => edge.length > 1);
  const declaration = Array.from({ length: questionCount }, (_, q) => q);
  let best = declaration;
  let bestSpan = span(declaration, useful);
  for (const start of [declaration, breadthFirst(questionCount, useful)]) {
    const candidate = force(start, useful);
    const candidateSpan = span(candidate, useful);
    if (candidateSpan < bestSpan) {
      best = candidate;
      bestSpan = candidateSpan;
    }
  }
  return best;
}

function positions(order: readonly number[]): Float64Array {
  const at = new Float64Array(order.length);
  order.forEach((q, i) => (at[q] = i));
  return at;
}

/** Sum over constraints of the distance between their first and last question. */
export function span(order: readonly number[], edges: ReadonlyArray<readonly number[]>): number {
  const at = positions(order);
  let total = 0;
  for (const edge of edges) {
    let low = Infinity;
    let high = -Infinity;
    for (const q of edge) {
      low = Math.min(low, at[q]);
      high = Math.max(high, at[q]);
    }
    total += high - low;
  }
  return total;
}

function force(start: readonly number[], edges: ReadonlyArray<readonly number[]>): number[] {
  let order = [...start];
  let best = order;
  let bestSpan = span(order, edges);
  const n = order.length;
  for (let round = 0; round < 40; round++) {
    const at = positions(order);
    const sum = new Float64Array(n);
    const count = new Float64Array(n);
    for (const edge of edges) {
      let centre = 0;
      for (const q of edge) centre += at[q];
      centre /= edge.length;
      for (const q of edge) {
        sum[q] += centre;
        count[q]++;
      }
    }
    const target = Array.from({ length: n }, (_, q) => (count[q] > 0 ? sum[q] / count[q] : at[q]));
    order = [...order].sort((a, b) => target[a] - target[b] || at[a] - at[b]);
    const current = span(order, edges);
    if (current < bestSpan) {
      best = order;
      bestSpan = current;
    } else if (round > 5 && current >= bestSpan) break;
  }
  return best;
}

/** Breadth-first from a low-degree question, neighbours by ascending degree (Cuthill–McKee). */
function breadthFirst(n: number, edges: ReadonlyArray<readonly number[]>): number[] {
  const neighbours: Array<Set<number>> = Array.from({ length: n }, () => new Set());
  for (const edge of edges)
    for (const a of edge) for (const b of edge) if (a !== b) neighbours[a].add(b);
  const degree = neighbours.map((set) => set.size);
  const seen = new Uint8Array(n);
  const order: number[] = [];
  const byDegree = Array.from({ length: n }, (_, q) => q).sort((a, b) => degree[a] - degree[b]);
  for (const start of byDegree) {
    if (seen[start] === 1) continue;
    seen[start] = 1;
    const queue = [start];
    for (let head = 0; head < queue.length; head++) {
      const q = queue[head];
      order.push(q);
      const next = [...neighbours[q]]
        .filter((p) => seen[p] === 0)
        .sort((a, b) => degree[a] - degree[b]);
      for (const p of next) {
        seen[p] = 1;
        queue.push(p);
      }
    }
  }
  return order;
}
