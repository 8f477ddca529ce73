/**
 * The engine's runtime plumbing, apart from its stages (./index.ts): what the engine
 * workers and the service around them need to cache, move and store compiled models and
 * to write lines (docs/ENGINE.md "Stages", docs/adr/0065). Not the engine's API: callers
 * that only validate, compile or evaluate use ./index.ts. ESLint keeps the main thread
 * off the names here that compile, revive or cache a model (eslint.config.js).
 */
export { CompiledModelCache, type CacheEntryOptions } from './cache.js';
export { reviveModel, toTransferable, type RevivedModel } from './transfer.js';
export type { ConsistencyForm } from './consistency/form.js';
export {
  deserializeConsistency,
  serializeConsistency,
  storedEngineVersion,
} from './consistency/serialize.js';
export { consistencyTimeLimitMs } from './consistency/fallback.js';
export { compactLine, type CompactableLine, type CompactLine } from './evaluate/compact-line.js';
