/** Types of tools/dimacs-to-model.mjs for the TypeScript benchmark and tests. */
export interface ConvertedModel {
  document: { general: { name: string }; questions: unknown[]; rules: unknown[] };
  variables: number;
  /** Clause rules written (tautologies left out). */
  clauses: number;
  declaredClauses: number;
  skipped: number;
}

export function dimacsToModel(
  text: string,
  options?: { name?: string; indexKeys?: boolean },
): ConvertedModel;
