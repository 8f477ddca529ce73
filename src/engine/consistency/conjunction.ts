import type { LayerPlan } from './domains.js';
import { FALSE, type MddStore, TRUE } from './mdd.js';
import { OverCap } from './mdd-budget.js';
import { treeSchedule } from './schedule.js';

/**
 * The conjunction of a compile's parts (compile.ts): the prefix schedule by deepest layer
 * and, when it runs past its share of the work budget, the tree decomposition's schedule
 * (schedule.ts; docs/adr/0121).
 */

/** Subtrees of the decomposition up to this many questions are conjoined first (docs/adr/0121). */
const SUBTREE_QUESTIONS = 40;

/** The share of the work budget the prefix schedule may spend before the tree one is tried. */
const PREFIX_SHARE = 0.2;

/**
 * The conjunction of every part (their roots are `store.pins[0…]`; docs/adr/0121): first
 * the prefix schedule (`conjoin`) within a fifth of the work budget; past it, from the
 * parts again, the tree schedule (`conjoinByTree`) with the rest. Neither wins on every
 * model: the prefix one compiles renault-megane and the generated models with the least
 * work, the tree one the 268-question car (which the prefix one alone did not finish
 * within the default budgets). Both read the parts through copies of their pins, so a schedule given up
 * costs only the work it spent (counted, not timed: deterministic).
 */
export function conjoinScheduled(
  store: MddStore,
  plan: LayerPlan,
  scopes: ReadonlyArray<readonly number[]>,
  questionCount: number,
  steps: number,
): number {
  const partCount = scopes.length;
  const { pins } = store;
  for (let i = 0; i < partCount; i++) if (scopes[i].length === 0 && pins[i] === FALSE) return FALSE;
  const done = (root: number): number => {
    pins.fill(TRUE, 0, partCount);
    return root;
  };
  store.workCap = store.work + steps * PREFIX_SHARE;
  try {
    const copies = scopes.map((_, i) => pins.push(pins[i]) - 1);
    return done(conjoin(store, plan, scopes, questionCount, copies));
  } catch (error) {
    if (!(error instanceof OverCap)) throw error;
  } finally {
    store.workCap = Infinity;
  }
  pins.length = partCount;
  return done(conjoinByTree(store, plan, scopes, questionCount));
}

/**
 * The tree schedule (schedule.ts): the buckets of subtrees of at most SUBTREE_QUESTIONS
 * questions conjoin their parts (by deepest layer) and their children's results; then the
 * prefix schedule (`conjoin`) takes those subtrees' results and the larger buckets' parts.
 * A subtree's result is placed (deepest layer, component) by the questions eliminated in
 * it, not by its separator: with the separator the 268-question car ran out of the budget,
 * without it it takes 3.6 M steps (an order only: the conjunction is the same). Larger
 * buckets are a dense core (renault-megane's last ones blew up past 50 M steps when
 * conjoined as one subtree), which the prefix order handles.
 */
function conjoinByTree(
  store: MddStore,
  plan: LayerPlan,
  scopes: ReadonlyArray<readonly number[]>,
  questionCount: number,
): number {
  const { pins } = store;
  const schedule = treeSchedule(questionCount, scopes);
  const last = scopes.map((scope) => lastLayer(plan, scope));
  /** Per bucket: the pin slot of its result (-1 for a large bucket). */
  const resultPin: number[] = [];
  /** What the prefix schedule conjoins: pin slots (copies for parts) and their scopes. */
  const slots: number[] = [];
  const slotScopes: Array<readonly number[]> = [];
  const handOn = (slot: number, scope: readonly number[]): void => {
    slots.push(slot);
    slotScopes.push(scope);
  };
  const copyOf = (part: number): number => pins.push(pins[part]) - 1;
  for (const bucket of schedule.buckets) {
    if (bucket.questions.length > SUBTREE_QUESTIONS) {
      resultPin.push(-1);
      for (const i of bucket.parts) handOn(copyOf(i), scopes[i]);
      for (const child of bucket.children)
        if (resultPin[child] >= 0) handOn(resultPin[child], schedule.buckets[child].questions);
      continue;
    }
    const at = pins.push(TRUE) - 1;
    resultPin.push(at);
    const operands = [...bucket.parts]
      .sort((a, b) => last[a] - last[b])
      .map(copyOf)
      .concat(bucket.children.map((child) => resultPin[child]));
    for (const slot of operands) {
      pins[at] = store.retrying(() => store.apply('and', pins[at], pins[slot]));
      pins[slot] = TRUE;
      if (pins[at] === FALSE) return FALSE;
    }
  }
  for (const root of schedule.roots)
    if (resultPin[root] >= 0) handOn(resultPin[root], schedule.buckets[root].questions);
  return conjoin(store, plan, slotScopes, questionCount, slots);
}

/**
 * The prefix schedule: the conjunction of `slots` (pin slots; by default every part's, `store.pins[0…]`). Parts are grouped by
 * connected component of the constraint graph; within a component, top-down by the
 * deepest layer each reads, so the partial diagram is the exact solution space of a
 * growing prefix (bottom-up and balanced orders blew up on renault-medium: > 10^6 nodes,
 * against 7,515 in the end). Components are then joined from the deepest one up, each
 * apply walking only the upper component (their layers barely interleave after the
 * variable order). A part conjoined is unpinned, so collections free what only it held.
 */
function conjoin(
  store: MddStore,
  plan: LayerPlan,
  scopes: ReadonlyArray<readonly number[]>,
  questionCount: number,
  slots: readonly number[] = scopes.map((_, i) => i),
): number {
  const { pins } = store;
  const partCount = scopes.length;
  // Parts that read no finite question are constants (TRUE or FALSE).
  for (let i = 0; i < partCount; i++)
    if (scopes[i].length === 0 && pins[slots[i]] === FALSE) return FALSE;
  const parent = Array.from({ length: questionCount }, (_, q) => q);
  const find = (q: number): number => {
    let at = q;
    while (parent[at] !== at) at = parent[at] = parent[parent[at]];
    return at;
  };
  for (const scope of scopes) for (const q of scope) parent[find(q)] = find(scope[0]);
  const groups = new Map<number, number[]>();
  scopes.forEach((scope, i) => {
    if (scope.length === 0) return;
    const key = find(scope[0]);
    const group = groups.get(key) ?? [];
    group.push(i);
    groups.set(key, group);
  });
  const last = scopes.map((scope) => lastLayer(plan, scope));
  /** Pin slots of the components' roots. */
  const components: number[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => last[a] - last[b]);
    const at = pins.length;
    pins.push(TRUE);
    components.push(at);
    for (const i of group) {
      const slot = slots[i];
      pins[at] = store.retrying(() => store.apply('and', pins[at], pins[slot]));
      pins[slot] = TRUE;
      if (pins[at] === FALSE) return FALSE;
    }
  }
  components.sort((a, b) => store.layerOfNode(pins[b]) - store.layerOfNode(pins[a]));
  const at = pins.length;
  pins.push(TRUE);
  for (const component of components) {
    pins[at] = store.retrying(() => store.apply('and', pins[component], pins[at]));
    pins[component] = TRUE;
  }
  return pins[at];
}

/** The deepest layer a part reads. */
function lastLayer(plan: LayerPlan, scope: readonly number[]): number {
  let last = -1;
  for (const q of scope) last = Math.max(last, plan.firstLayer[q] + plan.layerCount[q] - 1);
  return last;
}
