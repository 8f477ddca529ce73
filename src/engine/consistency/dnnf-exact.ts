import type { ModelCore } from '../model-core.js';
import { compileDnnf } from './dnnf-compile.js';
import { DNNF_FALSE, type DnnfForm, dnnfBytes } from './dnnf-form.js';
import { nogoodsOf, type PartForest } from './dnnf-nogoods.js';
import { DnnfQueries } from './dnnf-query.js';
import { deadOptions } from './dead-options.js';
import type { ConsistencyForm } from './form.js';
import { type Budget, BudgetExceeded } from './mdd-budget.js';
import { quickXplain } from './quickxplain.js';

/**
 * Nogood members the parts may make together (dnnf-nogoods.ts): a few times automotive02's
 * 80,000 clauses; a part with more paths to FALSE than that (a large table) is the
 * diagram's, not the DNNF's.
 */
export const MAX_NOGOOD_MEMBERS = 2_000_000;

/** What the DNNF makes exact in a fallback form: its members and analysis. */
export interface ExactByDnnf {
  readonly dnnf: DnnfForm;
  readonly configurations: string;
  readonly deadOptions: string[];
  /** Sources of a minimal set of parts with no common solution; [] when consistent. */
  readonly conflict: string[];
  readonly bytes: number;
}

/**
 * The finite part compiled into a decision-DNNF (docs/adr/0193) from the parts' own
 * diagrams (the fallback's forest, `sources` naming each root), within `budget`; undefined
 * when its nogoods are too many or the compile passes the budget (the form stays the
 * propagation fallback).
 */
export function exactByDnnf(
  model: ModelCore,
  form: ConsistencyForm,
  sources: readonly string[],
  budget: Budget,
): ExactByDnnf | undefined {
  const nogoods = nogoodsOf(form, MAX_NOGOOD_MEMBERS);
  if (nogoods === undefined) return undefined;
  let dnnf: DnnfForm;
  try {
    dnnf = compileDnnf(form.domain, nogoods, budget);
  } catch (error) {
    if (error instanceof BudgetExceeded) return undefined;
    throw error;
  }
  const queries = new DnnfQueries(dnnf, form.domain, form.valueBase);
  const free = new Int32Array(form.domain.length).fill(-1);
  const base = queries.base;
  return {
    dnnf,
    configurations: String(queries.configurations(free)),
    deadOptions: base === undefined ? [] : deadOptions(model, form, base),
    conflict: dnnf.root === DNNF_FALSE ? minimalConflict(form, sources, budget) : [],
    bytes: dnnfBytes(dnnf),
  };
}

/**
 * A minimal set of parts whose conjunction is empty (QuickXplain, a DNNF compile of the
 * set's nogoods per check), or every part when that passes the budget: a conflicting set,
 * never an empty one.
 */
function minimalConflict(form: PartForest, sources: readonly string[], budget: Budget): string[] {
  const indexes = sources.map((_, i) => i);
  const consistent = (set: readonly number[]): boolean => {
    const forest = { ...form, partRoots: Int32Array.from(set, (i) => form.partRoots[i]) };
    const nogoods = nogoodsOf(forest, MAX_NOGOOD_MEMBERS);
    if (nogoods === undefined) throw new BudgetExceeded('too many nogoods');
    return compileDnnf(form.domain, nogoods, budget).root !== DNNF_FALSE;
  };
  try {
    return (quickXplain(indexes, consistent) ?? indexes).map((i) => sources[i]);
  } catch (error) {
    if (error instanceof BudgetExceeded) return [...sources];
    throw error;
  }
}
