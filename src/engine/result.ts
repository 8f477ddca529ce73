import type { Problem } from './problems.js';

/** The outcome of a stage: its artifact, or every problem found (docs/ENGINE.md "Stages"). */
export type Result<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };
