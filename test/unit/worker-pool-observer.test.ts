import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolObserver, WorkerLoss } from '../../src/common/pool-observer.js';
import { WorkerFailure, WorkerPool } from '../../src/engine-runtime/worker-pool.js';

/**
 * A worker as small as the pool's protocol: `{kind: 'echo', value}` answers the value after
 * `ms`, `spin` never answers (its deadline ends it), `exit` stops the thread.
 */
const WORKER = `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', (task) => {
  if (task.kind === 'spin') for (;;);
  if (task.kind === 'exit') process.exit(3);
  setTimeout(() => parentPort.postMessage({ ok: true, value: task.value }), task.ms ?? 0);
});
parentPort.postMessage({ ready: true });
`;

/** What the observer was told, in order. */
function recorder() {
  const events: string[] = [];
  const waits: number[] = [];
  const lost: WorkerLoss[] = [];
  const kind = (task: unknown) => (task as { kind: string }).kind;
  const observer: PoolObserver = {
    started: (task, waitedMs) => {
      events.push(`started ${kind(task)}`);
      waits.push(waitedMs);
    },
    finished: (task, ranMs, ok) => {
      expect(ranMs).toBeGreaterThanOrEqual(0);
      events.push(`finished ${kind(task)} ${ok ? 'ok' : 'failed'}`);
    },
    refused: (task) => events.push(`refused ${kind(task)}`),
    workerLost: (reason) => lost.push(reason),
  };
  return { observer, events, waits, lost };
}

describe('WorkerPool tells its observer what happens to tasks and workers', () => {
  let dir: string;
  let entry: URL;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pool-observer-'));
    const file = join(dir, 'worker.mjs');
    writeFileSync(file, WORKER);
    entry = pathToFileURL(file);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const poolWith = (observer: PoolObserver, perTenant = 1) =>
    new WorkerPool({
      name: 'test',
      entry: { filename: entry },
      workers: 1,
      heapMb: 64,
      perTenant,
      observer,
    });

  it('reports each task started (with its queue wait) and finished, and the depth while one waits', async () => {
    const { observer, events, waits } = recorder();
    const pool = poolWith(observer);
    try {
      const options = { tenant: 'a', deadlineMs: 10_000 };
      const first = pool.run({ kind: 'echo', value: 1, ms: 200 }, options);
      const second = pool.run({ kind: 'echo', value: 2 }, options);
      expect(pool.waiting).toBe(1);
      expect(await Promise.all([first, second])).toEqual([1, 2]);
      expect(pool.waiting).toBe(0);
      expect(events).toEqual([
        'started echo',
        'finished echo ok',
        'started echo',
        'finished echo ok',
      ]);
      // The first started at once; the second waited until the first had answered.
      expect(waits[1]).toBeGreaterThan(waits[0]);
    } finally {
      await pool.close();
    }
  });

  it('reports a task refused past its tenant bound, and workers lost to a deadline or a crash', async () => {
    const { observer, events, lost } = recorder();
    const pool = poolWith(observer);
    try {
      const spinning = pool.run({ kind: 'spin' }, { tenant: 'a', deadlineMs: 300 });
      const queued = pool.run({ kind: 'echo', value: 'after' }, { tenant: 'a', deadlineMs: 5_000 });
      await expect(pool.run({ kind: 'echo' }, { tenant: 'a', deadlineMs: 5_000 })).rejects.toThrow(
        WorkerFailure,
      );
      await expect(spinning).rejects.toMatchObject({ reason: 'deadline' });
      expect(await queued).toBe('after');
      await expect(
        pool.run({ kind: 'exit' }, { tenant: 'b', deadlineMs: 5_000 }),
      ).rejects.toMatchObject({
        reason: 'crashed',
      });
      expect(lost).toEqual(['deadline', 'crashed']);
      expect(events).toEqual([
        'started spin',
        'refused echo',
        'finished spin failed',
        'started echo',
        'finished echo ok',
        'started exit',
        'finished exit failed',
      ]);
    } finally {
      await pool.close();
    }
  });
});
