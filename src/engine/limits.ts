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
  /** Bytes of one image of a zip, uncompressed. */
  assetBytes: number;
  /** Bytes of every image of a zip together, uncompressed. */
  modelAssetBytes: number;
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
  /**
   * Compile budget of the consistency form: milliseconds (docs/model-format.md "Limits"). A
   * safety net: whether a model is exact is decided by the steps and bytes, which do not
   * depend on the machine's load.
   */
  consistencyMs: number;
  /** Compile budget of the consistency form: units of work (apply steps, nodes, assignments). */
  consistencySteps: number;
  /** Compile budget of the consistency form: bytes of diagram storage. */
  consistencyBytes: number;
  /** Assignments enumerated to turn one expression of the finite part into a constraint. */
  consistencyEnumeration: number;
  /**
   * Explanation budget of one evaluation: units of work (diagram edges a check examines,
   * pairwise lookups, part nodes propagation revises), not time, spent on
   * `conflicts_with`, `unavailable_because` and conflict sets. Past it the remaining
   * unavailable options carry `explained: false`; availability is never approximated
   * (docs/adr/0061-explanation-budget.md).
   */
  explanationWork: number;
}

export const DEFAULT_ENGINE_LIMITS: Readonly<EngineLimits> = Object.freeze({
  uploadBytes: 10 * 1024 * 1024,
  zipUncompressedBytes: 50 * 1024 * 1024,
  zipEntries: 1_000,
  assetBytes: 10 * 1024 * 1024,
  modelAssetBytes: 32 * 1024 * 1024,
  yamlAliases: 100,
  nestingDepth: 64,
  // Industrial feature models: Linux 6,467 features, automotive02 up to 18,616 (model-format.md "Limits").
  questions: 20_000,
  optionsPerQuestion: 1_000,
  // A 20,000-feature model's clauses: 80,000 validate in ~0.5 s unloaded, 155 MB of heap.
  rules: 100_000,
  bomItems: 50_000,
  expressionBytes: 4 * 1024,
  tableRows: 500_000,
  expressionCost: 1_000_000,
  evaluationCost: 10_000_000,
  consistencyMs: 30_000,
  consistencyBytes: 256 * 1024 * 1024,
  consistencySteps: 50_000_000,
  consistencyEnumeration: 100_000,
  explanationWork: 1_000_000,
});

export function resolveLimits(overrides: Partial<EngineLimits> = {}): EngineLimits {
  return { ...DEFAULT_ENGINE_LIMITS, ...overrides };
}

/**
 * Longest text, in characters, of each text member of a model (and of its translations,
 * which are held to the member they translate). Fixed, documented in model-format.md
 * ("Limits"): with the expanded size bounded by the upload limit, they keep one text from
 * being repeated into every answer that names its part (a label is in every preview).
 */
export const TEXT_MAX_LENGTHS: Readonly<Record<string, number>> = Object.freeze({
  name: 200,
  code: 100,
  label: 500,
  description: 4_000,
  message: 1_000,
  unit: 50,
  sku: 200,
  alt: 500,
});
