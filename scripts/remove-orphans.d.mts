/** Types of scripts/remove-orphans.mjs for its test. */
export function removeOrphans(out: string, src: string): void;
