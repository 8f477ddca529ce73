import { readFile } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { slicingOf } from '../../src/common/event-loop/slices.js';

/** Runs `work` inside an I/O callback (the poll phase, where a request's handling runs). */
const inIoCallback = <T>(work: () => Promise<T>): Promise<T> =>
  new Promise((done, fail) => readFile(import.meta.filename, () => work().then(done, fail)));

describe('slicingOf', () => {
  it('resumes paused work only after a due timer had its turn, even from an I/O callback', async () => {
    const order = await inIoCallback(async () => {
      const seen: string[] = [];
      setTimeout(() => seen.push('timer'), 0);
      // The timer is due before the pause: a single setImmediate would still resume first.
      const until = performance.now() + 3;
      while (performance.now() < until);
      await slicingOf(10).pause();
      seen.push('resumed');
      return seen;
    });
    expect(order).toEqual(['timer', 'resumed']);
  });
});
