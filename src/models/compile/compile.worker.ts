import { runBuild, runCompile, type BuildTask, type CompileTask } from './build-model.js';

/**
 * The compile worker's entry (piscina `filename`): reads, validates, type-checks,
 * estimates and compiles off the event loop. The compiled model comes back as one
 * byte array (copying it is a memcpy; reviving it is sliced on the main thread).
 */
export default function compileInWorker(task: BuildTask | CompileTask): Promise<unknown> {
  return task.kind === 'build' ? runBuild(task) : Promise.resolve(runCompile(task));
}
