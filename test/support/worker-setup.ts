import { fileURLToPath } from 'node:url';

// The tests' app runs from the TypeScript sources: its engine workers import this loader
// first (AppConfig.engineWorkerLoader), so they can too.
process.env.ENGINE_WORKER_LOADER ??= fileURLToPath(
  new URL('./worker-ts-loader.mjs', import.meta.url),
);
