import type { ConsistencyForm } from './form.js';
import { isConsistent } from './query.js';

/** Restrictions: `values[i]` for layer `layers[i]` (one answer). */
export interface Restriction {
  readonly layers: readonly number[];
  readonly values: readonly number[];
}

/**
 * QuickXplain (U. Junker, "QUICKXPLAIN: preferred explanations and relaxations for
 * over-constrained problems", AAAI 2004; the generic form is quickxplain.ts) over
 * diagram restrictions: the preferred minimal subset C of `candidates` (indices,
 * ascending) such that C with what `fixed` holds has no valid completion; [] when
 * `fixed` alone has none; undefined when it has one with every candidate.
 *
 * Same checks and the same answer as `quickXplain` with a consistency check per set,
 * without building a set and a restriction array per check: candidates are written into
 * `fixed` and taken out again as the recursion goes (their layers must be free in it,
 * except `keep`, a layer of the background a candidate may also restrict — a
 * multi_choice's other selections — which stays as it is). `fixed` is restored on return.
 * `known`: the caller already knows that `fixed` with every candidate has no completion
 * and `fixed` alone has one (the two first checks, the costliest, are skipped).
 */
export function explainConflict(
  form: ConsistencyForm,
  candidates: readonly Restriction[],
  fixed: Int32Array,
  keep = -1,
  known = false,
): number[] | undefined {
  const set = (from: number, to: number, on: boolean): void => {
    for (let c = from; c < to; c++) {
      const { layers, values } = candidates[c];
      for (let i = 0; i < layers.length; i++)
        if (layers[i] !== keep) fixed[layers[i]] = on ? values[i] : -1;
    }
  };
  const setAll = (list: readonly number[], on: boolean): void => {
    for (const c of list) set(c, c + 1, on);
  };
  const consistent = (): boolean => isConsistent(form, fixed);

  /** Junker's QXP(B, Δ, C) with B in `fixed` and C = candidates[from, to). */
  const explain = (added: boolean, from: number, to: number): number[] => {
    if (added && !consistent()) return [];
    if (to - from === 1) return [from];
    const middle = from + ((to - from) >> 1);
    set(from, middle, true);
    const second = explain(true, middle, to);
    set(from, middle, false);
    setAll(second, true);
    const first = explain(second.length > 0, from, middle);
    setAll(second, false);
    return [...first, ...second];
  };

  if (!known) {
    set(0, candidates.length, true);
    const all = consistent();
    set(0, candidates.length, false);
    if (all) return undefined;
    if (candidates.length === 0 || !consistent()) return [];
  }
  return explain(false, 0, candidates.length);
}
