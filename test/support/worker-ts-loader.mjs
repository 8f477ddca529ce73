// Lets a worker thread run src/ from its TypeScript sources (the tests' app has no dist/):
// passed as `--import` to the engine workers through ENGINE_WORKER_LOADER (worker-setup.ts).
// module.register (Node 20.6+), not the synchronous registerHooks (Node 22.15+): the
// project supports Node 22.14.
import { register } from 'node:module';

register('./worker-ts-hooks.mjs', import.meta.url);
