/**
 * What the main thread takes from the engine as values: constants and small pure helpers
 * whose modules reach no compile, evaluate, describe or revive code (engine work runs in
 * the engine workers: docs/adr/0050-engine-worker-runtime.md). Types come from index.ts
 * (`import type`, erased). ESLint refuses value imports of index.ts outside the workers'
 * code and the CLI, so the main thread never loads the engine's working code.
 */
export { ENGINE_VERSION } from './version.js';
export { storedEngineVersion } from './consistency/stored-version.js';
export { compactLine } from './evaluate/compact-line.js';
export { DEFAULT_ENGINE_LIMITS } from './limits.js';
export { consistencyTimeLimitMs } from './consistency/budget.js';
export { Money } from './money.js';
export { QUESTION_TYPES } from './cel/environment.js';
export { sourceFormatOf } from './source/content-type.js';
export { MAX_PATH_LENGTH } from './source/paths.js';
export { unsafeTextProblems } from './source/text.js';
