/**
 * The conjunction schedule by a tree decomposition (docs/adr/0121): bucket elimination's
 * tree (Dechter, "Bucket elimination", AIJ 1999) over the constraint graph, eliminated by
 * min-fill (Kjaerulff 1990). Each part goes to the bucket of its first-eliminated
 * question; a bucket conjoins its parts and what its children send, then sends the whole
 * conjunction (never a projection: the result is the solution space itself) to the
 * bucket of its next-eliminated question. So parts that interact are conjoined first and
 * each intermediate diagram is the solution space of one subtree of the decomposition,
 * whose width the decomposition bounds, instead of a prefix of the variable order, whose
 * open constraints may be many.
 */

/** A conjunction step: conjoin `parts` (part indexes) and `children` (earlier steps' results). */
export interface Bucket {
  readonly parts: number[];
  readonly children: number[];
  /** Questions eliminated in its subtree (its own and its descendants'). */
  readonly questions: number[];
}

/**
 * Buckets in the order they are conjoined; a bucket's children come before it. The last
 * buckets with no parent are the roots (one per connected component); `roots` lists them.
 */
export interface Schedule {
  readonly buckets: Bucket[];
  readonly roots: number[];
}

export function treeSchedule(
  questionCount: number,
  scopes: ReadonlyArray<readonly number[]>,
): Schedule {
  const eliminated = minFillOrder(questionCount, scopes);
  const rank = new Int32Array(questionCount).fill(-1);
  eliminated.forEach((q, i) => (rank[q] = i));
  /** Per question's bucket: its parts, children and the questions its contents read. */
  const parts: number[][] = Array.from({ length: questionCount }, () => []);
  const children: number[][] = Array.from({ length: questionCount }, () => []);
  const reads: Array<Set<number>> = Array.from({ length: questionCount }, () => new Set());
  scopes.forEach((scope, i) => {
    if (scope.length === 0) return;
    let first = scope[0];
    for (const q of scope) if (rank[q] < rank[first]) first = q;
    parts[first].push(i);
    for (const q of scope) reads[first].add(q);
  });
  const buckets: Bucket[] = [];
  const roots: number[] = [];
  /** Per question: its bucket's index in `buckets` once scheduled. */
  const scheduled = new Int32Array(questionCount).fill(-1);
  for (const q of eliminated) {
    if (parts[q].length === 0 && children[q].length === 0) continue;
    const at = buckets.length;
    const questions = [q];
    for (const child of children[q]) for (const p of buckets[child].questions) questions.push(p);
    buckets.push({ parts: parts[q], children: children[q], questions });
    scheduled[q] = at;
    let parent = -1;
    for (const p of reads[q]) if (p !== q && (parent < 0 || rank[p] < rank[parent])) parent = p;
    if (parent < 0) {
      roots.push(at);
      continue;
    }
    children[parent].push(at);
    for (const p of reads[q]) if (p !== q) reads[parent].add(p);
  }
  return { buckets, roots };
}

/**
 * Min-fill elimination order of the primal graph (each scope a clique): eliminate the
 * question whose neighbours need the fewest new edges to become a clique, ties by fewer
 * neighbours, then by index. Questions no scope reads come first (nothing to fill).
 */
export function minFillOrder(
  questionCount: number,
  scopes: ReadonlyArray<readonly number[]>,
): number[] {
  const neighbours: Array<Set<number>> = Array.from({ length: questionCount }, () => new Set());
  for (const scope of scopes)
    for (const a of scope) for (const b of scope) if (a !== b) neighbours[a].add(b);
  const done = new Uint8Array(questionCount);
  const order: number[] = [];
  const fillOf = (q: number): number => {
    const list = [...neighbours[q]];
    let fill = 0;
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) if (!neighbours[list[i]].has(list[j])) fill++;
    return fill;
  };
  const fill = Array.from({ length: questionCount }, (_, q) => fillOf(q));
  for (let step = 0; step < questionCount; step++) {
    let best = -1;
    for (let q = 0; q < questionCount; q++) {
      if (done[q] === 1) continue;
      if (
        best < 0 ||
        fill[q] < fill[best] ||
        (fill[q] === fill[best] && neighbours[q].size < neighbours[best].size)
      )
        best = q;
    }
    done[best] = 1;
    order.push(best);
    const list = [...neighbours[best]];
    for (const a of list) neighbours[a].delete(best);
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        neighbours[list[i]].add(list[j]);
        neighbours[list[j]].add(list[i]);
      }
    // Only the neighbours (and theirs) can change fill: recompute those.
    const touched = new Set<number>(list);
    for (const a of list) for (const b of neighbours[a]) touched.add(b);
    for (const q of touched) if (done[q] === 0) fill[q] = fillOf(q);
  }
  return order;
}
