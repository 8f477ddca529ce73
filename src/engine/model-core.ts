import type { Expression } from './cel/expression.js';
import type { QuestionType } from './cel/environment.js';
import type { Money, RoundingMode } from './money.js';
import type { LineImport } from './types.js';

/** A value as CEL sees it: string, bigint (int), number (double), boolean, string[]… */
export type CelValue = unknown;

export interface CompiledOption {
  readonly key: string;
  readonly labelSlot: number;
  readonly descriptionSlot: number | undefined;
  readonly price: Money | undefined;
  readonly availableIf: Expression | undefined;
  readonly image: string | undefined;
}

export interface CompiledQuestion {
  readonly index: number;
  readonly key: string;
  readonly type: QuestionType;
  readonly labelSlot: number;
  readonly descriptionSlot: number | undefined;
  readonly unit: string | undefined;
  readonly required: boolean | Expression;
  readonly visibleIf: Expression | undefined;
  /** Literal default already converted to its CEL value; null when none. */
  readonly defaultValue: CelValue | null;
  readonly defaultExpr: Expression | undefined;
  readonly options: readonly CompiledOption[];
  readonly optionIndex: ReadonlyMap<string, number>;
  readonly minSelected: number | undefined;
  readonly maxSelected: number | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly step: number | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  /** Triggers that set this question, in list order (set by the compile's compaction). */
  readonly triggers: readonly number[];
  /** Parallel to `triggers`: the index of this question's target in that trigger's `targets`. */
  readonly triggerTargets: readonly number[];
}

export interface CompiledVariable {
  readonly index: number;
  readonly key: string;
  readonly expr: Expression;
  readonly labelSlot: number | undefined;
  /** Shown to buyers in the line's `displayed_variables` (its label then required). */
  readonly display: boolean;
  readonly unitSlot: number | undefined;
}

export interface CompatibilityTable {
  /** Question index of each column. */
  readonly columns: Int32Array;
  /** Cells row by row (`cells[row * columns.length + column]`), CEL values comparable with `===`. */
  readonly cells: readonly CelValue[];
  readonly rowCount: number;
  /** Per column, per option: the rows holding it (layout: validate/table-index.ts). */
  readonly offers: Int32Array;
}

export interface CompiledRule {
  readonly index: number;
  readonly key: string;
  readonly when: Expression | undefined;
  readonly severity: 'error' | 'warning';
  readonly messageSlot: number;
  readonly assert: Expression | undefined;
  readonly table: CompatibilityTable | undefined;
  /** A clause, cardinality, `requires` or `excludes` rule (validate/logical-rules.ts). */
  readonly logic?: LogicalRule;
}

/**
 * A logical rule as a bound on how many of its literals hold: a clause is "at least 1",
 * `requires` and `excludes` are clauses. A literal on an unanswered (or hidden)
 * single-value question is open: it counts as holding for `at_least` and as not holding
 * for `at_most`, so an unanswered question never makes the rule fail (like a table's
 * no-value column).
 */
export interface LogicalRule {
  readonly bound: 'at_least' | 'at_most';
  readonly count: number;
  /** Per literal: its question. (Plain arrays: a typed array per rule costs more to make.) */
  readonly questions: readonly number[];
  /** Per literal: the option's index (a boolean's: 0 false, 1 true). */
  readonly options: readonly number[];
  /** Per literal: 1 when it says `!=` (the option is not the value, or not selected). */
  readonly negated: readonly number[];
  /** The most literals on one question (1 when each has its own): what one answer can change. */
  readonly spread: number;
}

export interface TriggerTarget {
  readonly question: number;
  readonly literal: CelValue | null;
  readonly expr: Expression | undefined;
}

export interface CompiledTrigger {
  readonly index: number;
  readonly key: string;
  readonly when: Expression;
  readonly targets: readonly TriggerTarget[];
  readonly messageSlot: number | undefined;
}

export interface CompiledBomItem {
  readonly key: string;
  readonly sku: string;
  readonly descriptionSlot: number;
  readonly when: Expression | undefined;
  readonly quantity: Money | Expression;
  readonly unit: string | undefined;
  readonly unitPrice: Money | undefined;
  readonly priceExpr: Expression | undefined;
  readonly children: readonly CompiledBomItem[];
  /** unit_price as shown (at least `scale` decimals); '' when priced by price_expr. */
  readonly unitPriceText: string;
  /** Literal quantity and price: the line as a top-level item, computed at compile. */
  readonly fixedLine: FixedBomLine | undefined;
}

export interface FixedBomLine {
  readonly quantityText: string;
  readonly total: Money;
  readonly totalText: string;
  /** `total` in minor units (see money.ts `minorUnits`). */
  readonly totalMinor: number;
}

export interface CompiledAdjustment {
  readonly key: string;
  readonly labelSlot: number;
  readonly when: Expression | undefined;
  readonly amount: Money | undefined;
  readonly percent: Money | undefined;
  readonly expr: Expression | undefined;
}

export interface CompiledPricing {
  readonly basePrice: Money;
  readonly adjustments: readonly CompiledAdjustment[];
  readonly scale: number;
  readonly mode: RoundingMode;
}

export interface CompiledImage {
  readonly key: string;
  readonly src: string;
  readonly when: Expression | undefined;
  readonly layer: number;
  readonly altSlot: number | undefined;
}

export interface CompiledGeneral {
  readonly name: string;
  readonly nameSlot: number;
  readonly code: string | undefined;
  readonly description: string | undefined;
  readonly descriptionSlot: number | undefined;
  readonly currency: string;
  readonly defaultLanguage: string;
  /** As written (`2026-01-01` or an ISO timestamp). */
  readonly validFrom: string | undefined;
  readonly validUntil: string | undefined;
  /** Epoch milliseconds: first valid instant, and first instant no longer valid. */
  readonly validFromTime: number | undefined;
  readonly validUntilTime: number | undefined;
}

/** An `imports` entry after merging, as echoed in every cart line. */
export type ImportRecord = LineImport;

/** Texts of one language, by slot (see TextCatalog). */
export interface LanguageTexts {
  readonly language: string;
  readonly texts: readonly string[];
  /** Slots with no text in this language (they fell back). */
  readonly missing: Uint8Array;
  /**
   * Paths of the texts in every line (general, questions, options, rules, triggers)
   * that fell back, in slot order; frozen, `[]` for the base language.
   */
  readonly staticMissing: readonly string[];
}

/** Every translatable text of the model: a slot number per text, with its path. */
export interface TextCatalog {
  readonly paths: readonly string[];
  readonly byLanguage: ReadonlyMap<string, LanguageTexts>;
  /** The model's own texts (and the default language's translations). */
  readonly base: LanguageTexts;
}

/**
 * A model validated and compiled, before its consistency form is attached: expressions
 * parsed and type-checked, dependency order fixed, lookups precomputed. The consistency
 * compile (consistency/) reads this; it lives below the consistency form so that
 * consistency/ never depends on its own result (docs/adr/0065).
 */
export interface ModelCore {
  readonly general: CompiledGeneral;
  readonly imports: readonly ImportRecord[];
  readonly questions: readonly CompiledQuestion[];
  readonly questionIndex: ReadonlyMap<string, number>;
  readonly variables: readonly CompiledVariable[];
  readonly rules: readonly CompiledRule[];
  readonly triggers: readonly CompiledTrigger[];
  readonly bomItems: readonly CompiledBomItem[];
  readonly pricing: CompiledPricing;
  readonly images: readonly CompiledImage[];
  readonly text: TextCatalog;
  /**
   * Value phase order: node ids (question i → i, variable j → Q + j, trigger k →
   * Q + V + k) in topological order of the dependency graph.
   */
  readonly valueOrder: Int32Array;
  /** Questions with at least one option that has an available_if. */
  readonly optionConditions: readonly CompiledQuestion[];
  /** Per question, per option: the price rounded to the pricing scale (undefined: no price). */
  readonly optionPrices: ReadonlyArray<ReadonlyArray<Money | undefined>>;
  /** Per question, per option: that price as text with exactly `scale` decimals. */
  readonly optionPriceTexts: ReadonlyArray<readonly string[]>;
  /** Per question: where its options start in `optionPriceMinor`. */
  readonly optionBase: Int32Array;
  /** Every option's rounded price in minor units, flat (0: no price; NaN: use optionPrices). */
  readonly optionPriceMinor: Float64Array;
  /** The runtime cost budget of one evaluation (EngineLimits.evaluationCost). */
  readonly costBudget: number;
  /** The explanation budget of one evaluation (EngineLimits.explanationWork; default when absent). */
  readonly explanationWork?: number;
  /** Top-level `x-*` members, verbatim. */
  readonly extensions: Readonly<Record<string, unknown>>;
}
