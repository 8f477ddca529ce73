import type { ConsistencyForm } from './form.js';
import { isConsistent } from './query.js';
import { segmentsOf } from './prepared.js';
import type { Work } from './work.js';

/** Restrictions: `values[i]` for layer `layers[i]` (one answer). */
export interface Restriction {
  readonly layers: readonly number[];
  readonly values: readonly number[];
}

export interface ExplainOptions {
  /**
   * A layer of the background a candidate may also restrict — a multi_choice's other
   * selections — which stays as it is.
   */
  readonly keep?: number;
  /**
   * The caller already knows that `fixed` with every candidate has no completion and
   * `fixed` alone has one (the two first checks, the costliest, are skipped).
   */
  readonly known?: boolean;
  /**
   * A layer whose segment (segments.ts) holds the conflict: the caller knows that the
   * restrictions of `fixed` and of every candidate outside that segment have a
   * completion (e.g. the candidates are consistent answers and `fixed` restricts that
   * segment only). Candidates that restrict no layer of it are left out and each check
   * searches that segment alone.
   */
  readonly focus?: number;
  /** The evaluation's explanation budget: each check is charged (OutOfWork past it). */
  readonly work?: Work;
}

/**
 * QuickXplain (U. Junker, "QUICKXPLAIN: preferred explanations and relaxations for
 * over-constrained problems", AAAI 2004; the generic form is quickxplain.ts) over
 * diagram restrictions: the preferred minimal subset C of `candidates` (indices,
 * ascending) such that C with what `fixed` holds has no valid completion; [] when
 * `fixed` alone has none; undefined when it has one with every candidate.
 *
 * Same answer as `quickXplain` with a consistency check per set, without building a set
 * and a restriction array per check: candidates are written into `fixed` and taken out
 * again as the recursion goes (their layers must be free in it, except `keep`). `fixed`
 * is restored on return.
 *
 * With `focus`, the same answer too: QuickXplain returns the preferred conflict — the
 * one a linear scan finds by adding candidates in order until the check fails, keeping
 * that last one and starting again — and a candidate that never changes a check's
 * outcome is never the one that makes it fail, so leaving it out changes nothing.
 */
export function explainConflict(
  form: ConsistencyForm,
  all: readonly Restriction[],
  fixed: Int32Array,
  { keep = -1, known = false, focus = -1, work }: ExplainOptions = {},
): number[] | undefined {
  const segment = focus < 0 ? -1 : segmentsOf(form).ofLayer[focus];
  let candidates = all;
  let index: number[] | undefined;
  if (segment >= 0) {
    ({ candidates, index } = inSegment(form, all, segment, keep));
    if (known && candidates.length === 0) return [];
  }
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
  const consistent = (): boolean => isConsistent(form, fixed, segment, work);

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

  try {
    if (!known) {
      set(0, candidates.length, true);
      const whole = consistent();
      set(0, candidates.length, false);
      if (whole) return undefined;
      if (candidates.length === 0 || !consistent()) return [];
    }
    const found = explain(false, 0, candidates.length);
    return index === undefined ? found : found.map((c) => (index as number[])[c]);
  } catch (error) {
    set(0, candidates.length, false); // past the budget (work.ts): `fixed` restored all the same
    throw error;
  }
}

/** The candidates restricting a layer of the segment (other than `keep`), and their indices. */
function inSegment(
  form: ConsistencyForm,
  all: readonly Restriction[],
  segment: number,
  keep: number,
): { candidates: Restriction[]; index: number[] } {
  const { ofLayer } = segmentsOf(form);
  const candidates: Restriction[] = [];
  const index: number[] = [];
  for (let c = 0; c < all.length; c++) {
    const { layers } = all[c];
    for (let i = 0; i < layers.length; i++) {
      if (layers[i] !== keep && ofLayer[layers[i]] === segment) {
        candidates.push(all[c]);
        index.push(c);
        break;
      }
    }
  }
  return { candidates, index };
}
