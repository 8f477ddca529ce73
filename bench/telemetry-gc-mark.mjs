/**
 * Preloaded into the services telemetry-profile.mjs measures (`--expose-gc --import`, never
 * in production): SIGUSR2 makes the main thread collect its young generation at once, so
 * that `--trace-gc` prints a `testing` line there. Two such lines bound the measured
 * window, and the heap sizes the lines between them print add up to what was allocated
 * in it, exactly (a collection's size before, less the previous one's after).
 */
import { isMainThread } from 'node:worker_threads';

if (isMainThread) process.on('SIGUSR2', () => globalThis.gc?.({ type: 'minor' }));
