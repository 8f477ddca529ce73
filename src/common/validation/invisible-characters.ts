/**
 * Characters that change how text is shown without being seen: the bidirectional controls
 * (ALM, LRM, RLM, LRE…RLO, LRI…PDI) and the zero-width ones (ZWSP, ZWNJ, ZWJ, word joiner,
 * the invisible operators, BOM). In a key they make two keys that look the same differ
 * (`WIN` and `WIN\u200B`), or show one reordered, so a key refuses them.
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** True when `key` holds a bidi control or a zero-width character. */
export function hasInvisibleCharacters(key: string): boolean {
  return INVISIBLE.test(key);
}
