/**
 * Items (questions, variables, BOM items) an evaluation phase handles between two points
 * where it may pause: a look at the clock per item would cost more than it saves.
 */
export const STEP_ITEMS = 16;

/** How work done in steps gives the event loop its turn. */
export interface Slicing {
  /** Run steps for about this long before pausing (ms). */
  sliceMs: number;
  /** Resolves once other work had its turn (in Node: `setImmediate`). */
  pause: () => Promise<void>;
}

/**
 * Runs a generator of steps to its end, pausing between two steps once `sliceMs` have
 * passed since the last pause: long work (reviving or evaluating a large model, writing
 * a large answer) in slices instead of one block of the event loop.
 */
export async function runInSlices<T>(steps: Generator<void, T>, slicing: Slicing): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    if (performance.now() - sliceStart >= slicing.sliceMs) {
      await slicing.pause();
      sliceStart = performance.now();
    }
  }
}

/** The same steps at once, for a caller that cannot pause. */
export function runAtOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
