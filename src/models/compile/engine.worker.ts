import { parentPort, workerData } from 'node:worker_threads';
import { EngineTasks, type EngineTask, type EngineWorkerData } from './engine-tasks.js';

/**
 * The entry of every engine worker (src/workers/worker-pool.ts): one task at a time,
 * answered with its value or the message of what it threw. A task past its deadline is
 * not answered at all: the pool terminates this thread.
 */
const tasks = new EngineTasks(workerData as EngineWorkerData);
const port = parentPort;
if (port === null) throw new Error('engine.worker.ts runs as a worker thread only');

port.on('message', (task: EngineTask) => {
  tasks.run(task).then(
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
