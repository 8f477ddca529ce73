import { inject } from 'vitest';

// The tests' app runs from the TypeScript sources; its engine workers run the bundle that
// the global setup built from them (engine-worker-bundle.ts, AppConfig.engineWorkerEntry).
process.env.ENGINE_WORKER_ENTRY ??= inject('engineWorkerEntry');
