import { describe, expect, it } from 'vitest';
import {
  runAsSlicedStep,
  runInSlices,
  type Slicing,
} from '../../src/common/event-loop/slice-clock.js';

/**
 * Several pieces of sliced work at once, on a fake clock: every step takes STEP_MS, and
 * each end of a turn (one `pause()` resolving) is counted, so that the time the steps of
 * one turn took is exactly what the event loop was held for.
 */
const STEP_MS = 2;
const SLICE_MS = 10;
/** The fake clock, never going back between tests (the slice is the process's). */
let time = 1_000;

/** A step that ran: which work, in which turn, and how long it took (STEP_MS if not said). */
interface Ran {
  work: number;
  turn: number;
  ms?: number;
}

function concurrentWork(works: number, stepsEach: number, stepsOf?: number[]) {
  time += 1_000;
  let turn = 0;
  const ran: Ran[] = [];
  const slicing: Slicing = {
    sliceMs: SLICE_MS,
    now: () => time,
    pause: () =>
      new Promise<void>((done) =>
        setImmediate(() => {
          turn++;
          done();
        }),
      ),
  };
  function* steps(work: number): Generator<void, number> {
    for (let i = 0; i < (stepsOf?.[work] ?? stepsEach); i++) {
      time += STEP_MS;
      ran.push({ work, turn });
      yield;
    }
    return work;
  }
  const done = Promise.all(
    Array.from({ length: works }, (_, work) => runInSlices(steps(work), slicing)),
  );
  /** One step of `ms` that cannot be cut, as sliced work (a large body's parse). */
  const uncut = (work: number, ms: number) =>
    runAsSlicedStep(() => {
      time += ms;
      ran.push({ work, turn, ms });
      return work;
    }, slicing);
  return { done, ran, uncut };
}

/** Per turn: the time its steps took and the works that ran in it, in order. */
function byTurn(ran: Ran[]) {
  const turns = new Map<number, { ms: number; works: number[] }>();
  for (const { work, turn, ms } of ran) {
    const entry = turns.get(turn) ?? { ms: 0, works: [] };
    entry.ms += ms ?? STEP_MS;
    if (entry.works.at(-1) !== work) entry.works.push(work);
    turns.set(turn, entry);
  }
  return [...turns.values()];
}

describe('runInSlices: one slice for all sliced work', () => {
  it('holds the event loop for one slice per turn, however many pieces of work run at once', async () => {
    const { done, ran } = concurrentWork(4, 30);
    expect(await done).toEqual([0, 1, 2, 3]);
    expect(ran).toHaveLength(120);
    const [first, ...rest] = byTurn(ran);
    // Four slices back to back would be 40 ms; a turn's steps now stop at its slice. In
    // the first, the three that began after the slice was spent ran one step (GRACE_MS).
    expect(first).toEqual({ ms: SLICE_MS + 3 * STEP_MS, works: [0, 1, 2, 3] });
    expect(Math.max(...rest.map((t) => t.ms))).toBe(SLICE_MS);
    const turns = [first, ...rest];
    // 240 ms of steps, 10 ms a turn.
    expect(turns.length).toBeLessThanOrEqual(25);
  });

  it('gives the turns to the pieces of work in rotation', async () => {
    const { done, ran } = concurrentWork(3, 30);
    await done;
    // Each piece of work runs in at least one of any three turns in a row until it ends.
    const turns = byTurn(ran);
    for (const work of [0, 1, 2]) {
      const at = turns.flatMap((t, i) => (t.works.includes(work) ? [i] : []));
      expect(at.length).toBeGreaterThanOrEqual(6);
      for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeLessThanOrEqual(3);
    }
  });

  it('lets small work that begins after the slice was spent end without waiting', async () => {
    // The first spends the slice and pauses; the second needs one step and ends at once.
    const { done, ran } = concurrentWork(2, 30, [30, 1]);
    await done;
    expect(ran.filter((r) => r.work === 1)).toEqual([{ work: 1, turn: 0 }]);
  });

  it('goes on with the other work when one piece fails in the middle', async () => {
    time += 1_000;
    const slicing: Slicing = {
      sliceMs: SLICE_MS,
      now: () => time,
      pause: () => new Promise<void>((done) => setImmediate(done)),
    };
    function* steps(work: number, failAt?: number): Generator<void, number> {
      for (let i = 0; i < 20; i++) {
        time += STEP_MS;
        if (i === failAt) throw new Error(`work ${work} failed`);
        yield;
      }
      return work;
    }
    const outcomes = await Promise.allSettled([
      runInSlices(steps(0), slicing),
      runInSlices(steps(1, 7), slicing),
      runInSlices(steps(2), slicing),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('lets work that begins in a turn with time left run in it', async () => {
    // One step each: 4 ms in all, well within one slice; no work waits for a turn.
    const { done, ran } = concurrentWork(2, 1);
    await done;
    expect(byTurn(ran)).toEqual([{ ms: 4, works: [0, 1] }]);
  });
});

describe('runAsSlicedStep: work that cannot be cut', () => {
  it('runs at once when the slice has time', async () => {
    const { uncut, ran } = concurrentWork(0, 0);
    expect(await uncut(7, 4)).toBe(7);
    expect(ran).toEqual([{ work: 7, turn: 0, ms: 4 }]);
  });

  it('waits for a turn of its own when the slice is spent, without a grace step', async () => {
    // Work 0 spends the first turn's slice; the uncut step (as large as a slice) comes
    // after and may not add its 10 ms to that turn, as a grace step of sliced work would.
    const { done, ran, uncut } = concurrentWork(1, 30);
    const step = uncut(9, SLICE_MS);
    await Promise.all([done, step]);
    const at = ran.find((r) => r.work === 9);
    expect(at?.turn).toBeGreaterThan(0);
    // No turn holds the loop for more than its slice plus the one step that began it.
    for (const turn of byTurn(ran)) expect(turn.ms).toBeLessThanOrEqual(SLICE_MS + STEP_MS);
  });
});
