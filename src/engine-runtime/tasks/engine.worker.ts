import { parentPort, workerData } from 'node:worker_threads';
import { epochNow, taskSpan } from '../../tracing/task-span.js';
import type { Traced } from '../../tracing/task-trace.js';
import { EngineTasks, type EngineTask, type EngineWorkerData } from './engine-tasks.js';

/**
 * The entry of every engine worker (src/engine-runtime/worker-pool.ts): one task at a time,
 * answered with its value or the message of what it threw. A task past its deadline is
 * not answered at all: the pool terminates this thread. A task that carries its request's
 * trace is timed here, around the engine call, and its span goes back as `report` beside
 * the answer (src/tracing/task-span.ts): the main thread exports it.
 */
const tasks = new EngineTasks(workerData as EngineWorkerData);
const port = parentPort;
if (port === null) throw new Error('engine.worker.ts runs as a worker thread only');

port.on('message', (task: Traced<EngineTask>) => {
  const start = task.trace === undefined ? 0 : epochNow();
  tasks.run(task).then(
    ({ value, transfer }) =>
      port.postMessage({ ok: true, value, report: taskSpan(task, start) }, transfer),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ ok: false, message, report: taskSpan(task, start, message) });
    },
  );
});
// Loaded: the pool counts a task's deadline from now on.
port.postMessage({ ready: true });
