/** Types of tools/gen-model.mjs for the TypeScript benchmark and tests. */
export interface GeneratedModel {
  model: Record<string, unknown>;
  answers: Record<string, { values: unknown[] }>;
}

export function generateModel(nQuestions: number, nOptions?: number): GeneratedModel;
