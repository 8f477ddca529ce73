import type { ConsistencyForm } from './consistency/form.js';
import type { ModelCore } from './model-core.js';

export type * from './model-core.js';

/**
 * A model, validated and compiled once per version: expressions parsed and
 * type-checked, dependency order fixed, lookups precomputed, the solution space of its
 * finite part compiled. Immutable; shared by every evaluation of that version. The
 * compile stage's artifact (stages/compile.ts).
 */
export interface CompiledModel extends ModelCore {
  /** The compiled solution space of the finite part (consistency/). */
  readonly consistency: ConsistencyForm;
}
