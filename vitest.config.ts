import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC (not esbuild) compiles the tests so that decorator metadata reaches NestJS.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['test/**/*.test.ts'],
    // Every answer of a test app is checked against openapi.json (test/support).
    // The engine workers' bundle, built once per run (test/support/engine-worker-bundle.ts).
    globalSetup: ['test/support/engine-worker-bundle.ts'],
    setupFiles: ['test/support/worker-setup.ts', 'test/support/contract-setup.ts'],
    environment: 'node',
    pool: 'forks',
    // One fork per core, not vitest's default of one fewer: most of a file's time is its
    // app's imports and its engine workers, and on a 2-core machine one fork left a core
    // idle (the suite took 353 s with one, ~250 s with two).
    maxWorkers: '100%',
    // A fork runs its files one after another in one module registry: each file re-imported
    // the app's module graph (447 s of the suite's CPU), shared it takes 25 s. The app and the
    // engine keep no process-global state, so files do not leak into each other; a file that
    // mocks a module loads what it tests afresh (vi.resetModules, walker-errors.test.ts).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
