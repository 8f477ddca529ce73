import { setImmediate } from 'node:timers/promises';
import type { Slicing } from './slice-clock.js';

/**
 * How long work that can pause (reviving or evaluating a large model, serializing a large
 * answer) runs before giving the event loop its turn (EVENT_LOOP_SLICE_MS).
 *
 * A pause is two `setImmediate` turns: work paused from an I/O callback (a request that
 * has just been parsed and validated) would otherwise resume in the same loop iteration's
 * check phase, before any timer or other request had its turn; the second turn resumes it
 * only after the next iteration's timers and I/O.
 */
export function slicingOf(sliceMs: number): Slicing {
  return {
    sliceMs,
    pause: async () => {
      await setImmediate();
      await setImmediate();
    },
  };
}
