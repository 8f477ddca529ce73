/**
 * An independent model count of a CNF formula, to check the engine's count on converted
 * feature models (bench:consistency FEATURE_MODELS): exhaustive DPLL with unit
 * propagation that splits the formula into variable-disjoint components and multiplies
 * their counts, memoizing components by their clauses (the scheme of #SAT counters such
 * as Cachet and sharpSAT, much simplified). Written apart from the engine: it shares no
 * code with the decision diagram.
 */
export function countModels(variables: number, clauses: readonly (readonly number[])[]): bigint {
  const cache = new Map<string, bigint>();
  const count = (formula: number[][], free: Set<number>): bigint => {
    // Unit propagation.
    let current = formula;
    const assigned = new Map<number, boolean>();
    for (;;) {
      const unit = current.find((clause) => clause.length === 1);
      if (unit === undefined) break;
      const literal = unit[0];
      assigned.set(Math.abs(literal), literal > 0);
      const next: number[][] = [];
      for (const clause of current) {
        if (clause.includes(literal)) continue;
        const reduced = clause.filter((other) => other !== -literal);
        if (reduced.length === 0) return 0n;
        next.push(reduced);
      }
      current = next;
    }
    const remaining = new Set([...free].filter((v) => !assigned.has(v)));
    if (current.length === 0) return 2n ** BigInt(remaining.size);
    // Variables in no clause are free: a factor 2 each.
    const inClauses = new Set<number>();
    for (const clause of current) for (const literal of clause) inClauses.add(Math.abs(literal));
    let factor = 1n;
    for (const v of remaining) if (!inClauses.has(v)) factor *= 2n;
    let product = factor;
    for (const component of components(current)) {
      const key = component
        .map((clause) => clause.join(' '))
        .sort()
        .join('|');
      let known = cache.get(key);
      if (known === undefined) {
        known = split(component);
        cache.set(key, known);
      }
      product *= known;
      if (product === 0n) return 0n;
    }
    return product;
  };
  const split = (component: number[][]): bigint => {
    // Branch on the variable that occurs most often.
    const occurrences = new Map<number, number>();
    for (const clause of component)
      for (const literal of clause)
        occurrences.set(Math.abs(literal), (occurrences.get(Math.abs(literal)) ?? 0) + 1);
    let variable = 0;
    let most = -1;
    for (const [v, n] of occurrences)
      if (n > most) {
        most = n;
        variable = v;
      }
    const scope = new Set(occurrences.keys());
    let total = 0n;
    for (const literal of [variable, -variable]) total += count([...component, [literal]], scope);
    return total;
  };
  const all = new Set<number>();
  for (let v = 1; v <= variables; v++) all.add(v);
  return count(
    clauses.map((clause) => [...new Set(clause)]).filter((c) => !c.some((l) => c.includes(-l))),
    all,
  );
}

/** Connected components of clauses sharing a variable. */
function components(clauses: number[][]): number[][][] {
  const parent = new Map<number, number>();
  const find = (v: number): number => {
    let root = v;
    while (parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(v, root);
    return root;
  };
  for (const clause of clauses)
    for (const literal of clause)
      if (!parent.has(Math.abs(literal))) parent.set(Math.abs(literal), Math.abs(literal));
  for (const clause of clauses) {
    const first = find(Math.abs(clause[0]));
    for (const literal of clause.slice(1)) parent.set(find(Math.abs(literal)), first);
  }
  const groups = new Map<number, number[][]>();
  for (const clause of clauses) {
    const root = find(Math.abs(clause[0]));
    const group = groups.get(root);
    if (group === undefined) groups.set(root, [clause]);
    else group.push(clause);
  }
  return [...groups.values()];
}

/** The clauses of a DIMACS CNF text (comments and the problem line skipped). */
export function parseCnf(text: string): { variables: number; clauses: number[][] } {
  let variables = 0;
  const clauses: number[][] = [];
  let current: number[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('c') || line.startsWith('%')) continue;
    if (line.startsWith('p')) {
      variables = Number(line.split(/\s+/)[2]);
      continue;
    }
    for (const token of line.split(/\s+/)) {
      const literal = Number(token);
      if (literal === 0) {
        clauses.push(current);
        current = [];
      } else {
        current.push(literal);
        variables = Math.max(variables, Math.abs(literal));
      }
    }
  }
  if (current.length > 0) clauses.push(current);
  return { variables, clauses };
}
