/**
 * The evaluation worker of the architecture's floors (bench/http-floor-stack.mjs): the
 * floor's model compiled once, each task answered by the service's own evaluate task
 * (dist/src/engine-runtime/tasks/evaluate-task.js: the same evaluation, the line and its
 * problems serialized here, their bytes transferred), as the service's engine worker does.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { compiledModel, config } from './http-floor-common.mjs';

const taskFile = join(config.root, 'dist', 'src', 'engine-runtime', 'tasks', 'evaluate-task.js');
const { evaluateTask } = await import(pathToFileURL(taskFile));
const { model } = await compiledModel();
// The benchmark's generated models have no assets; sameAnswer would show a signed URL missing.
const urls = { url: () => '' };

parentPort.on('message', (task) => {
  const { value, transfer } = evaluateTask(model, task, urls);
  parentPort.postMessage(value, transfer);
});
parentPort.postMessage({ ready: true });
