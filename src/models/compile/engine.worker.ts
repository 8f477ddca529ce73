import { parentPort, workerData } from 'node:worker_threads';
import type { Traced } from '../../tracing/task-trace.js';
import { EngineTasks, type EngineTask, type EngineWorkerData } from './engine-tasks.js';

/**
 * The entry of every engine worker (src/workers/worker-pool.ts): one task at a time,
 * answered with its value or the message of what it threw. A task past its deadline is
 * not answered at all: the pool terminates this thread. With tracing on, a task that
 * carries its request's trace runs inside a span of its own (src/tracing/worker-tracing.ts);
 * off, the tracing code is not even loaded.
 */
const settings = workerData as EngineWorkerData;
const tasks = new EngineTasks(settings);
const tracing = settings.tracing
  ? new (await import('../../tracing/worker-tracing.js')).WorkerTracing()
  : null;
const port = parentPort;
if (port === null) throw new Error('engine.worker.ts runs as a worker thread only');

port.on('message', (task: Traced<EngineTask>) => {
  const running = tracing ? tracing.around(task, () => tasks.run(task)) : tasks.run(task);
  running.then(
    ({ value, transfer }) => port.postMessage({ ok: true, value }, transfer),
    (error: unknown) =>
      port.postMessage({
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
// Loaded: the pool counts a task's deadline from now on.
port.postMessage({ ready: true });
