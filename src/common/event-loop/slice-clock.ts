// The main thread's remaining cooperative slicing (answer serialization, large bodies):
// engine work no longer runs here (docs/adr/0050-engine-worker-runtime.md).
/** How work done in steps gives the event loop its turn. */
export interface Slicing {
  /** Run steps for about this long before pausing (ms). */
  sliceMs: number;
  /** Resolves once other work had its turn (in Node: `setImmediate`). */
  pause: () => Promise<void>;
  /** The clock, in ms (default `performance.now`; tests give a fake one). */
  now?: () => number;
}

const clockOf = (slicing: Slicing): number => (slicing.now ? slicing.now() : performance.now());

/**
 * One slice for all sliced work of the process: the event loop is one, so concurrent
 * pieces of work (four previews of a large model at once) share its budget instead of
 * each running `sliceMs` back to back (four slices of 10 ms were one 40 ms block).
 * `turn`: the turn of the event loop (`Turns.count`) it opened in; `lastActive`: when
 * sliced work last ran in it.
 */
const slice = { start: 0, turn: -1, lastActive: Number.NEGATIVE_INFINITY };

/**
 * Work that begins within CONTINUE_MS of other sliced work having run, with no turn of
 * the event loop between (an evaluation, then the serialization of its answer), goes on
 * in its slice instead of opening a fresh one.
 */
const CONTINUE_MS = 1;

/**
 * Work that begins in a slice already spent may still run this long before it pauses:
 * small work (a line of a small model, its answer) then ends without a pause, which would
 * cost it a round of the waiting work; large work pauses after a step or two.
 */
const GRACE_MS = 1;

/** Whether the shared slice has no time left at `now`. */
const sliceSpent = (slicing: Slicing, now: number): boolean => now - slice.start >= slicing.sliceMs;

function openSlice(now: number): void {
  slice.start = now;
  slice.turn = turns.count;
  slice.lastActive = now;
}

/** Sliced work waiting for a turn of the event loop to end. */
interface Waiter {
  clock: SliceClock;
  resume: () => void;
}

/** The waiters of a pending turn: `first` resume before `then`. */
interface Turn {
  first: Waiter[];
  then: Waiter[];
}

/**
 * Turns of the event loop as sliced work sees them: a turn ends when a `pause()`
 * resolves. Work that pauses waits for the pending turn to end; then the waiters run
 * one at a time (the next is resumed when the one running pauses or ends), as long as
 * the turn's slice has time. Those it had none for go first in the next turn, so that
 * concurrent pieces of work get slices in rotation.
 */
class Turns {
  /** Turns ended so far. */
  count = 0;
  private pending: Turn | null = null;
  /** Waiters of the turn that ended, not resumed yet. */
  private ready: Waiter[] = [];
  /** The resumed waiter running now. */
  private running: SliceClock | null = null;

  get isPending(): boolean {
    return this.pending !== null;
  }

  /** Waits for the pending turn to end (starting one with `slicing.pause()` if none). */
  join(waiter: Waiter, first = false): void {
    const turn = this.pending ?? this.start(waiter.clock.slicing);
    (first ? turn.first : turn.then).push(waiter);
  }

  /** The running waiter paused or ended: the next one may run. */
  release(clock: SliceClock): void {
    if (this.running !== clock) return;
    this.running = null;
    this.resumeNext();
  }

  private start(slicing: Slicing): Turn {
    const turn: Turn = { first: [], then: [] };
    this.pending = turn;
    void slicing.pause().then(() => {
      this.pending = null;
      this.count++;
      this.ready.push(...turn.first, ...turn.then);
      this.running = null;
      this.resumeNext();
    });
    return turn;
  }

  private resumeNext(): void {
    const waiter = this.ready.shift();
    if (!waiter) return;
    const { slicing } = waiter.clock;
    const now = clockOf(slicing);
    if (slice.turn !== this.count) openSlice(now);
    else if (sliceSpent(slicing, now)) {
      // The slice is spent: this waiter and the rest go first in the next turn.
      for (const next of [waiter, ...this.ready.splice(0)]) this.join(next, true);
      return;
    }
    this.running = waiter.clock;
    waiter.resume();
  }
}

const turns = new Turns();

/**
 * The clock of one piece of sliced work: whether the shared slice is over, and the
 * pause. Work that begins while the loop has not turned since other sliced work ran (a
 * turn is pending, or that work ran less than CONTINUE_MS ago) continues its slice.
 */
export class SliceClock {
  /** Until when this work may run although the slice is spent (GRACE_MS). */
  private graceUntil: number;

  constructor(readonly slicing: Slicing) {
    const now = clockOf(slicing);
    const sameTurn =
      slice.turn === turns.count && (turns.isPending || now - slice.lastActive < CONTINUE_MS);
    if (!sameTurn) openSlice(now);
    this.graceUntil = now + GRACE_MS;
  }

  /** The shared slice has no time left, grace or not. */
  spent(): boolean {
    return sliceSpent(this.slicing, clockOf(this.slicing));
  }

  /** The slice is over: pause before the next step. */
  due(): boolean {
    const now = clockOf(this.slicing);
    return sliceSpent(this.slicing, now) && now >= this.graceUntil;
  }

  /** Gives the event loop its turn; resolves when this work may run again. */
  async pause(): Promise<void> {
    slice.lastActive = this.graceUntil = clockOf(this.slicing);
    const resumed = new Promise<void>((resume) => turns.join({ clock: this, resume }));
    turns.release(this);
    await resumed;
  }

  /** The work is done: other work may run in what is left of the slice. */
  end(): void {
    slice.lastActive = clockOf(this.slicing);
    turns.release(this);
  }
}

/**
 * Runs a generator of steps to its end, pausing between two steps once the shared slice
 * is over: long work (reviving or evaluating a large model, writing a large answer) in
 * slices instead of one block of the event loop. `pauseFirst`: give the event loop its
 * turn before the first step (the caller's turn has done work of its own).
 */
export async function runInSlices<T>(
  steps: Generator<void, T>,
  slicing: Slicing,
  pauseFirst = false,
): Promise<T> {
  const clock = new SliceClock(slicing);
  try {
    // Work that begins in a turn whose slice is spent waits at once.
    if (pauseFirst || clock.due()) await clock.pause();
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
      if (clock.due()) await clock.pause();
    }
  } finally {
    clock.end();
  }
}

/**
 * Work that cannot be cut but takes milliseconds (parsing and walking a large request
 * body) as one step of sliced work: it waits for the next turn's slice while this one is
 * spent (no grace: it is known to be large), then runs. In an idle process it runs at once.
 */
export async function runAsSlicedStep<T>(work: () => T, slicing: Slicing): Promise<T> {
  const clock = new SliceClock(slicing);
  try {
    if (clock.spent()) await clock.pause();
    return work();
  } finally {
    clock.end();
  }
}
