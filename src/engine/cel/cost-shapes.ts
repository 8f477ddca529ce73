import { JSON_MAX_DEPTH } from './json.js';

/*
 * The sizes the cost estimator (cost.ts) tracks: every value carries an upper bound of its
 * size, a *shape* (a list's length and the shape of its elements, recursively).
 */

/** An upper bound of a value's size. `len` counts list/map entries or UTF-16 code units. */
export type Shape =
  | { readonly kind: 'scalar' }
  | { readonly kind: 'string'; readonly len: number }
  | {
      readonly kind: 'list';
      readonly len: number;
      readonly elem: Shape;
      /** When set: the whole value touches at most this many units (`volume`), however nested. */
      readonly cap?: number;
    }
  | { readonly kind: 'map'; readonly len: number; readonly key: Shape; readonly elem: Shape };

export interface Estimate {
  readonly cost: number;
  readonly shape: Shape;
}

export const SATURATED = 1e18;
/**
 * Units charged per AST node visited (elements and characters touched cost 1 each). A
 * cel-js node visit costs 20–100× a character comparison (measured, docs/ENGINE.md
 * "Expression cost"), so it is weighted: with this weight one unit stays under ~2.5 ns
 * on the development VM and the 10,000,000-unit budget under ~25 ms.
 */
export const NODE_UNITS = 20;
export const sat = (n: number): number => (n > SATURATED || Number.isNaN(n) ? SATURATED : n);
export const add = (...terms: number[]): number => sat(terms.reduce((sum, term) => sum + term, 0));
export const mul = (a: number, b: number): number => sat(a * b);

export const SCALAR: Shape = Object.freeze({ kind: 'scalar' });
export const stringShape = (len: number): Shape => ({ kind: 'string', len: sat(len) });
export const listShape = (len: number, elem: Shape): Shape => ({
  kind: 'list',
  len: sat(len),
  elem,
});

/**
 * A value whose shape cannot be derived (a name with no known shape): as large as anything
 * an evaluation could build, so iterating it is refused rather than under-estimated. A
 * list shape bounds a string or a map as well (`join`), so it is sound whatever the value.
 */
export const UNBOUNDED: Shape = Object.freeze({
  kind: 'list',
  len: SATURATED,
  elem: Object.freeze({ kind: 'string', len: SATURATED }),
});

/**
 * Comparing (`==`, `in`) a list or map that is itself an element of a list or map: cel-js
 * finds the equality overload and recurses per nested container (200 ns–1 µs measured for
 * `[[], …]`, `[{"": 1}, …]` and `[[[…]]]`).
 */
export const NESTED_UNITS = 5 * NODE_UNITS;

/**
 * The value `JSON.parse` can make of `bytes` bytes (`bytes.json()`), whatever its kind:
 * every list or map in it, at any depth, has at most `bytes` entries (each takes at least
 * one byte: `[1,1]`, `{"":1}`), every string at most `bytes` UTF-16 units (each unit comes
 * from at least one byte: a character, an escape or a UTF-8 sequence; invalid bytes decode
 * to one U+FFFD each). The whole value, or any part, has a volume of at most
 * `bytes × NESTED_UNITS` (`cap`; by induction: a scalar or string takes at least as many
 * bytes as its volume, a container at least one byte per entry, its brackets and commas,
 * beside its entries'), so comparing it is bounded although its shape is deep. One list
 * shape bounds all kinds at once (`join`: a list shape also bounds a string's or a map's
 * length, and its element a map's keys). Lists and maps nest at most JSON_MAX_DEPTH
 * levels (json.ts refuses deeper documents at evaluation), so below them are only
 * strings and scalars.
 */
export function jsonShape(bytes: number, depth = JSON_MAX_DEPTH): Shape {
  if (depth <= 0) return stringShape(bytes);
  const len = sat(bytes);
  return { kind: 'list', len, elem: jsonShape(len, depth - 1), cap: mul(len, NESTED_UNITS) };
}

/**
 * Characters/elements touched to read, copy or compare a whole value of this shape (a
 * container nested in another counts NESTED_UNITS more).
 */
export function volume(shape: Shape): number {
  switch (shape.kind) {
    case 'scalar':
      return 1;
    case 'string':
      return Math.max(1, shape.len);
    case 'list':
      // The cap first: a capped shape may be deep (jsonShape), its product meaningless.
      if (shape.cap !== undefined) return Math.max(1, shape.cap);
      return mul(Math.max(1, shape.len), add(volume(shape.elem), nested(shape.elem)));
    case 'map':
      return mul(
        Math.max(1, shape.len),
        add(volume(shape.key), volume(shape.elem), nested(shape.elem)),
      );
  }
}

/** The extra work of comparing an element that is itself a container (NESTED_UNITS). */
const nested = (elem: Shape): number =>
  elem.kind === 'list' || elem.kind === 'map' ? NESTED_UNITS : 0;

/** The smallest shape containing both (a ternary's branches, a list literal's elements). */
export function join(a: Shape, b: Shape): Shape {
  if (a.kind === 'scalar') return b;
  if (b.kind === 'scalar') return a;
  if (a.kind === 'string' && b.kind === 'string') return stringShape(Math.max(a.len, b.len));
  if (a.kind === 'list' && b.kind === 'list') {
    const [len, elem] = [Math.max(a.len, b.len), join(a.elem, b.elem)];
    // Two capped values (parsed JSON) stay capped: either one is at most the larger cap.
    if (a.cap === undefined || b.cap === undefined) return listShape(len, elem);
    return { kind: 'list', len, elem, cap: Math.max(a.cap, b.cap) };
  }
  if (a.kind === 'map' && b.kind === 'map') {
    return {
      kind: 'map',
      len: Math.max(a.len, b.len),
      key: join(a.key, b.key),
      elem: join(a.elem, b.elem),
    };
  }
  // Different kinds (a `dyn` mix): bound both ways at once.
  return listShape(Math.max(lenOf(a), lenOf(b)), join(elemOf(a), elemOf(b)));
}

export const lenOf = (shape: Shape): number => (shape.kind === 'scalar' ? 0 : shape.len);
export const elemOf = (shape: Shape): Shape =>
  shape.kind === 'list' || shape.kind === 'map' ? shape.elem : SCALAR;
