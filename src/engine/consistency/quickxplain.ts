/**
 * QuickXplain (U. Junker, "QUICKXPLAIN: preferred explanations and relaxations for
 * over-constrained problems", AAAI 2004): a minimal subset C of `candidates` such that
 * `background ∪ C` is inconsistent and removing any one element of C makes it
 * consistent. Needs O(|C| · log(|candidates| / |C|)) consistency checks.
 * Precondition: `background ∪ candidates` is inconsistent (else returns undefined).
 */
export function quickXplain<T>(
  candidates: readonly T[],
  consistent: (set: readonly T[]) => boolean,
  background: readonly T[] = [],
): T[] | undefined {
  if (consistent([...background, ...candidates])) return undefined;
  if (candidates.length === 0 || !consistent(background)) return [];
  return explain(background, false, candidates, consistent);
}

function explain<T>(
  background: readonly T[],
  added: boolean,
  candidates: readonly T[],
  consistent: (set: readonly T[]) => boolean,
): T[] {
  if (added && !consistent(background)) return [];
  if (candidates.length === 1) return [...candidates];
  const half = candidates.length >> 1;
  const first = candidates.slice(0, half);
  const second = candidates.slice(half);
  const fromSecond = explain([...background, ...first], first.length > 0, second, consistent);
  const fromFirst = explain(
    [...background, ...fromSecond],
    fromSecond.length > 0,
    first,
    consistent,
  );
  return [...fromFirst, ...fromSecond];
}
