import type { QuestionType } from './cel/environment.js';
import type { Problem } from './problems.js';

/** Public shapes of the cart line (docs/model-format.md "The cart line"), JSON-ready. */

export type ValueSource = 'user' | 'default' | 'trigger' | 'none';
export type RuleStatus = 'passed' | 'failed' | 'pending' | 'skipped';

export interface LineGeneral {
  model_id: number;
  name: string;
  code?: string;
  description?: string;
  currency: string;
  default_language: string;
  valid_from?: string;
  valid_until?: string;
}

export type LineImport = { path: string } | { model_id: number; version_number?: number };

export interface LineOption {
  key: string;
  label: string;
  /** Decimal string with the pricing scale ("0.00" when the option has no price). */
  price: string;
  available: boolean;
  /** Rule keys (compatibility tables) and option keys (their own available_if). */
  unavailable_because: string[];
  /** A minimal set of the user's answers (question keys) that excludes this option. */
  conflicts_with: string[];
  /**
   * Only `false`, on an unavailable option the evaluation's explanation budget did not
   * reach (EngineLimits.explanationWork): `conflicts_with` is then empty and
   * `unavailable_because` its local reasons or the rules reading its question.
   */
  explained?: false;
  selected: boolean;
}

export interface LineQuestion {
  key: string;
  type: QuestionType;
  label: string;
  visible: boolean;
  required: boolean;
  /** The effective values ([] when unanswered or hidden). */
  values: unknown[];
  source: ValueSource;
  /** What the user sent for a hidden question (dropped). */
  discarded: unknown[];
  /** Soft values left out because they would leave no valid completion (trigger keys, `default`). */
  suppressed: string[];
  options?: LineOption[];
  /**
   * Boolean and finite integer questions: the values with no valid completion given
   * the user's other answers (docs/model-format.md "Consistency"), ascending; [] when all are.
   */
  unavailable_values?: Array<boolean | number>;
}

export interface LineRule {
  key: string;
  status: RuleStatus;
  severity: 'error' | 'warning';
  message: string;
}

export interface LineTrigger {
  key: string;
  fired: boolean;
  /** The values this trigger gave questions (only those that took effect). */
  set: Record<string, unknown>;
  /** The trigger's (translated) message, when it has one. */
  message?: string;
}

export interface LineBomItem {
  key: string;
  sku: string;
  description: string;
  /** Exact decimal string: own quantity × the parent's line quantity. */
  quantity: string;
  unit: string | null;
  /** Decimal string with at least the pricing scale. */
  unit_price: string;
  /** quantity × unit_price rounded to the pricing scale. */
  total_price: string;
  children: LineBomItem[];
}

export interface LineAdjustment {
  key: string;
  label: string;
  amount: string;
}

export interface LinePricing {
  currency: string;
  base_price: string;
  options_total: string;
  bom_total: string;
  /** The adjustments that apply, each rounded to the scale. */
  adjustments: LineAdjustment[];
  subtotal: string;
  total: string;
}

export interface LineTranslation {
  language: string;
  fallback_used: boolean;
  missing: string[];
}

export interface LineImage {
  key: string;
  url: string;
  layer: number;
  alt: string | null;
}

/** How far the no-dead-ends guarantee holds (docs/model-format.md "Consistency"). */
export interface LineConsistency {
  exact: boolean;
  reason?: string;
  /**
   * Valid completions of the user's answers over the finite questions (decimal string),
   * only when exact; null otherwise (docs/model-format.md "Consistency").
   */
  configurations: string | null;
  /** When not exact: an upper bound of the completions (the propagated domains' product). */
  configurations_at_most?: string;
  /**
   * When not exact: paths of the options and values shown available for which no valid
   * completion was found within the evaluation's search budget (absent when every one was).
   */
  unconfirmed?: string[];
}

export interface LineCache {
  fingerprint: string;
  engine_version: string;
  evaluated_in_ms: number;
}

/** A computed variable the modeller shows buyers (`display: true`), translated. */
export interface LineDisplayedVariable {
  key: string;
  label: string;
  /** The value as `variables` has it (null when it cannot be computed). */
  value: unknown;
  unit?: string;
}

/** Every member of the cart line except `id`, which the service adds. */
export interface CartLine {
  version_number: number;
  general: LineGeneral;
  imports: LineImport[];
  questions: LineQuestion[];
  variables: Record<string, unknown>;
  displayed_variables: LineDisplayedVariable[];
  rules: LineRule[];
  triggers: LineTrigger[];
  bom_items: LineBomItem[];
  pricing: LinePricing;
  translation: LineTranslation;
  images: LineImage[];
  consistency: LineConsistency;
  cache: LineCache;
}

/**
 * `?view=compact` (docs/model-format.md "The cart line"): the line without what the model
 * already says. The engine builds it directly (no full line first): see
 * evaluate/compact-questions.ts.
 */
export type LineView = 'full' | 'compact';

/** An option of the compact view: only unavailable ones are listed, with their reasons. */
export interface CompactLineOption {
  key: string;
  /** Always false (only unavailable options are listed): read alike in both views. */
  available: false;
  unavailable_because: string[];
  conflicts_with?: string[];
  /** As in the full view: only `false`, when the explanation budget did not reach it. */
  explained?: false;
}

/** A question of the compact view: what the answers made of it, nothing the model says. */
export interface CompactLineQuestion {
  key: string;
  values: unknown[];
  source: ValueSource;
  visible: boolean;
  required: boolean;
  /** Only when something was dropped or left out: the exceptions a client must show. */
  discarded?: unknown[];
  suppressed?: string[];
  /** Choice questions: the unavailable options ([] when every option is available). */
  options?: CompactLineOption[];
  /** Boolean and finite integer questions, as in the full view (already only the unavailable). */
  unavailable_values?: Array<boolean | number>;
}

/** A BOM item of the compact view: `children` only when there are some. */
export type CompactLineBomItem = Omit<LineBomItem, 'children'> & {
  children?: CompactLineBomItem[];
};

export interface EvaluationRequest {
  modelId: number;
  versionNumber: number;
  /** The raw request body `questions`: `{key: {values: [...]}}` (validated here). */
  questions: unknown;
  languageCode?: string | null;
  /** For general.valid_from / valid_until; defaults to the current time. */
  now?: Date;
  /** Maps an image path inside the zip to a URL; https URLs pass through unchanged. */
  assetUrl?: (path: string) => string;
  /** The line's view; `full` when not given. */
  view?: LineView;
}

export interface Evaluation<Line = CartLine> {
  valid: boolean;
  errors: Problem[];
  warnings: Problem[];
  line: Line;
}
