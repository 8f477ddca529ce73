import {
  type CompactableLine,
  type CompactLine,
  type LineView,
  compactLine,
} from '../engine/index.js';

export type { LineView };

/** `?view=` of POST /v1/carts, POST /v1/carts/preview and GET /v1/carts/{cart_id}. */
export const LINE_VIEWS = ['full', 'compact'] as const satisfies readonly LineView[];

/** The line in the asked view (`full` is the line itself). */
export function lineInView<T extends CompactableLine>(line: T, view: LineView): T | CompactLine<T> {
  return view === 'compact' ? compactLine(line) : line;
}
