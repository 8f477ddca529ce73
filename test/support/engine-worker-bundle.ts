import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The engine workers' entry as one JavaScript file (see below). */
    engineWorkerEntry: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Vitest's global setup: the engine worker (src/engine-runtime/tasks/engine.worker.ts and what it
 * imports) bundled once per run into one ESM file that every test app's workers load
 * (ENGINE_WORKER_ENTRY, set in worker-setup.ts). Loading the TypeScript sources through a
 * module hook instead cost ~0.7 s of CPU per worker started (~0.15 s for this bundle), and
 * the suite starts hundreds. The bundle lives under node_modules/.cache so that its
 * external packages resolve from the repository's node_modules.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'engine-worker-'));
  const outfile = join(dir, 'engine.worker.mjs');
  await build({
    entryPoints: [join(root, 'src', 'engine-runtime', 'tasks', 'engine.worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  project.provide('engineWorkerEntry', outfile);
  return () => rmSync(dir, { recursive: true, force: true });
}
