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
 * The slice the last sliced work ran in: when other sliced work starts within
 * CONTINUE_MS of its end, it is most likely the same turn of the event loop (an
 * evaluation, then the serialization of its answer) and continues that slice instead
 * of starting a fresh one, so that back-to-back pieces of work share one slice.
 */
const lastSlice = { start: 0, end: Number.NEGATIVE_INFINITY };
const CONTINUE_MS = 1;

/** The clock of one piece of sliced work: when its slice is over, and the pause. */
export class SliceClock {
  private sliceStart: number;

  constructor(private readonly slicing: Slicing) {
    const now = performance.now();
    this.sliceStart = now - lastSlice.end < CONTINUE_MS ? lastSlice.start : now;
  }

  /** The slice is over: pause before the next step. */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.slicing.sliceMs;
  }

  async pause(): Promise<void> {
    await this.slicing.pause();
    this.sliceStart = performance.now();
  }

  /** The work is done (its slice may go on in the next piece of work). */
  end(): void {
    lastSlice.start = this.sliceStart;
    lastSlice.end = performance.now();
  }
}

/**
 * Runs a generator of steps to its end, pausing between two steps once `sliceMs` have
 * passed since the slice began: long work (reviving or evaluating a large model,
 * writing a large answer) in slices instead of one block of the event loop.
 */
export async function runInSlices<T>(steps: Generator<void, T>, slicing: Slicing): Promise<T> {
  const clock = new SliceClock(slicing);
  try {
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
      if (clock.due()) await clock.pause();
    }
  } finally {
    clock.end();
  }
}

/** The same steps at once, for a caller that cannot pause. */
export function runAtOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
