import type { QuestionType } from './cel/environment.js';
import type { Problem } from './problems.js';

/** Public shapes of the cart line (docs/model-format.md "The cart line"), JSON-ready. */

/** `completion`: filled by `complete: 'cheapest'` (docs/model-format.md "Guided configuration"). */
export type ValueSource = 'user' | 'default' | 'trigger' | 'none' | 'completion';
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
  /**
   * Available options of a finite question: the lowest and highest `pricing.total` of a
   * valid complete configuration that agrees with the other answers and picks this option
   * (decimal strings as `pricing.total`). Absent when the line has no price bounds.
   */
  price_from?: string;
  price_to?: string;
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
  /**
   * Finite `integer` questions: the admissible values given the other answers, as closed
   * intervals `[min, max]` in the question's units, ascending and disjoint ([] when none).
   */
  allowed?: Array<[number, number]>;
  /**
   * Boolean questions: price bounds per value (as an option's `price_from`/`price_to`),
   * keyed `"true"` / `"false"`, for the values with a valid completion.
   */
  value_prices?: Record<string, PriceBounds>;
}

/** Lowest and highest total (decimal strings) of the valid completions with one value. */
export interface PriceBounds {
  from: string;
  to: string;
}

/** `price_range` of the line: the lowest and highest total of the valid completions. */
export interface PriceRange {
  min: string;
  max: string;
}

/**
 * Whether `price_range`, `price_from` and `price_to` are the true extremes (`exact`), or
 * sound bounds that contain them (`reason` says why they are not exact, or why absent).
 */
export interface PriceBoundsStatus {
  exact: boolean;
  reason?: string;
}

/** One question the resolution changed: its values before and after (each [] when none). */
export interface ResolutionChange {
  question: string;
  from: unknown[];
  to: unknown[];
}

/**
 * The nearest valid configuration the request asked for (`resolve`): the answers it
 * changed or dropped, and whether it is proven minimal (`exact`).
 */
export interface LineResolution {
  changes: ResolutionChange[];
  exact: boolean;
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
  /**
   * Guided configuration (docs/model-format.md "Guided configuration"). Always set by the
   * engine; optional because lines stored before it lack them.
   */
  price_range?: PriceRange | null;
  price_bounds?: PriceBoundsStatus;
  /** Only when the request asked for a resolution (`resolve`). */
  resolution?: LineResolution;
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
  /** As in the full view. */
  allowed?: Array<[number, number]>;
  value_prices?: Record<string, PriceBounds>;
  /** Choice questions: price bounds of the available options, by option key. */
  option_prices?: Record<string, PriceBounds>;
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
  /**
   * The nearest valid configuration (docs/model-format.md "Guided configuration"):
   * `{question, value}` picks that value (a choice's option key, a boolean, an integer; a
   * multi_choice's option key to select it, or its whole list of keys) and changes the
   * fewest other user answers; `true` repairs conflicting answers. With it, answers that do
   * not fit the model (unknown question or option, value out of range) are dropped and
   * listed as changes instead of being errors.
   */
  resolve?: { question: string; value: unknown } | true;
  /** `cheapest`: fill the unanswered finite questions with a cheapest valid completion. */
  complete?: 'cheapest';
  /** false: no price bounds (benchmarks measure their cost); computed when not given. */
  priceBounds?: boolean;
  /** The price bounds' work budget in edges read (default PRICE_BOUNDS_WORK; tests lower it). */
  priceBoundsWork?: number;
}

export interface Evaluation<Line = CartLine> {
  valid: boolean;
  errors: Problem[];
  warnings: Problem[];
  line: Line;
}
