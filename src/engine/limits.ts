/**
 * Limits of docs/model-format.md ("Limits"), with their defaults. Every limit is checked
 * before the work it guards; the service overrides them from its configuration.
 */
export interface EngineLimits {
  /** Upload body in bytes (raw or multipart). */
  uploadBytes: number;
  /** Sum of the uncompressed sizes of every zip entry, in bytes. */
  zipUncompressedBytes: number;
  /** Entries (files and folders) in a zip archive. */
  zipEntries: number;
  /** YAML aliases (`*name`) in one document. */
  yamlAliases: number;
  /** Nesting depth of objects/arrays in a document. */
  nestingDepth: number;
  questions: number;
  optionsPerQuestion: number;
  rules: number;
  /** BOM items counted over every level of `children`. */
  bomItems: number;
  /** Characters in one CEL expression. */
  expressionBytes: number;
  /** Rows of every compatibility table together. */
  tableRows: number;
  /** Static worst-case cost of one expression (cel/cost.ts), checked at upload. */
  expressionCost: number;
  /** Runtime cost budget of one evaluation, over all its expressions. */
  evaluationCost: number;
  /** Compile budget of the consistency form: milliseconds (docs/model-format.md "Limits"). */
  consistencyMs: number;
  /** Compile budget of the consistency form: bytes of diagram storage. */
  consistencyBytes: number;
  /** Assignments enumerated to turn one expression of the finite part into a constraint. */
  consistencyEnumeration: number;
}

export const DEFAULT_ENGINE_LIMITS: Readonly<EngineLimits> = Object.freeze({
  uploadBytes: 10 * 1024 * 1024,
  zipUncompressedBytes: 50 * 1024 * 1024,
  zipEntries: 1_000,
  yamlAliases: 100,
  nestingDepth: 64,
  questions: 5_000,
  optionsPerQuestion: 1_000,
  rules: 20_000,
  bomItems: 50_000,
  expressionBytes: 4 * 1024,
  tableRows: 500_000,
  expressionCost: 1_000_000,
  evaluationCost: 10_000_000,
  consistencyMs: 30_000,
  consistencyBytes: 256 * 1024 * 1024,
  consistencyEnumeration: 100_000,
});

export function resolveLimits(overrides: Partial<EngineLimits> = {}): EngineLimits {
  return { ...DEFAULT_ENGINE_LIMITS, ...overrides };
}
