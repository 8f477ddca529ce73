import { setImmediate } from 'node:timers/promises';
import type { Slicing } from '../../engine/index.js';

/**
 * How long work that can pause (reviving or evaluating a large model, serializing a large
 * answer) runs before giving the event loop its turn (EVENT_LOOP_SLICE_MS): it resumes in
 * the loop's next check phase, after timers and I/O.
 */
export function slicingOf(sliceMs: number): Slicing {
  return { sliceMs, pause: () => setImmediate() };
}
