import { conditionOr, EvaluationContext, Expression } from '../cel/expression.js';
import { finiteDomain, type FiniteDomain } from '../consistency/domains.js';
import { SupportFinder } from '../consistency/parts.js';
import { derived } from '../derived.js';
import type { CompiledBomItem, CompiledModel } from '../model.js';
import { minorUnits, type Money, round } from '../money.js';

/**
 * How `pricing.total` splits over the diagram's values, once per model version
 * (docs/model-format.md "Guided configuration", docs/adr/0140). The subtotal is the sum of
 * per-value weights (option prices, BOM items and amount adjustments whose `when` reads one
 * single-value finite question) and a constant; `lo`/`hi` differ where a term is only
 * bounded (its `when` reads several questions, or a priced question's visibility is
 * outside the finite part). Percent adjustments apply to the subtotal afterwards.
 * All amounts in minor units of the pricing scale.
 */
export interface PriceTerms {
  /** Undefined when pricing cannot be bounded at all; then `reason` says why. */
  readonly weights:
    | {
        readonly lo: Float64Array;
        readonly hi: Float64Array;
        /** `hi` negated: (max, +) through the (min, +) passes. */
        readonly negatedHi: Float64Array;
      }
    | undefined;
  readonly constantLo: number;
  readonly constantHi: number;
  /** Percent adjustments (of the subtotal), `conditional` when they have a `when`. */
  readonly percents: ReadonlyArray<{ readonly percent: Money; readonly conditional: boolean }>;
  /** Amount adjustments added after the percents (only when there are percents). */
  readonly amountLo: number;
  readonly amountHi: number;
  /** Every weight is 0: the subtotal is the constant (no pass needed). */
  readonly flat: boolean;
  /** Whether the bounds are the true extremes (given an exact diagram). */
  readonly exact: boolean;
  readonly reason: string | undefined;
}

const TERMS = Symbol('price terms');

export function priceTerms(model: CompiledModel): PriceTerms {
  return derived(model, TERMS, () => analyse(model));
}

/** Past this magnitude (minor units) a sum of weights could leave exact doubles. */
const SAFE_TOTAL = 2 ** 52;

function analyse(model: CompiledModel): PriceTerms {
  const form = model.consistency;
  const { scale, mode } = model.pricing;
  const domains = model.questions.map((question) => finiteDomain(question));
  const supports = new SupportFinder(model, domains);
  const values = form.valueBase[form.domain.length];
  const lo = new Float64Array(values);
  const hi = new Float64Array(values);
  const reasons: string[] = [];
  const none = (reason: string): PriceTerms => ({
    weights: undefined,
    constantLo: 0,
    constantHi: 0,
    percents: [],
    amountLo: 0,
    amountHi: 0,
    flat: false,
    exact: false,
    reason,
  });
  const toMinor = (amount: Money): number => minorUnits(round(amount, scale, mode), scale);
  const evaluator = new TermEvaluator(model, domains);

  for (const question of model.questions) {
    const first = form.firstLayer[question.index];
    if (question.options.length === 0 || first < 0) continue;
    const base = model.optionBase[question.index];
    // A hidden question pays nothing; when the diagram does not know its visibility a
    // value may be held while hidden: the option's price or nothing.
    const visibilityKnown =
      question.visibleIf === undefined || supports.of(question.visibleIf) !== undefined;
    for (let o = 0; o < question.options.length; o++) {
      const price = model.optionPriceMinor[base + o];
      if (Number.isNaN(price)) return none(`the price of ${question.key}.${o} is out of range`);
      if (price === 0) continue;
      const at =
        question.type === 'multi_choice'
          ? form.valueBase[first + o] + 1
          : form.valueBase[first] + o + 1;
      lo[at] = visibilityKnown ? price : Math.min(0, price);
      hi[at] = visibilityKnown ? price : Math.max(0, price);
      if (!visibilityKnown)
        reasons.push(`the visibility of ${question.key} is outside the finite part`);
    }
  }

  let constantLo = toMinor(model.pricing.basePrice);
  let constantHi = constantLo;
  for (const item of model.bomItems) {
    const lines = literalLines(item, undefined, scale, mode);
    if (lines === undefined)
      return none(`BOM item ${item.key} has a computed quantity or price (or a child has)`);
    const total = lines.reduce((sum, line) => sum + line.minor, 0);
    const conditional = lines.some((line) => line.when !== undefined);
    if (!conditional) {
      constantLo += total;
      constantHi += total;
      continue;
    }
    // Only the top item conditional, on one single-value question: exact per value.
    const single =
      lines.slice(1).every((line) => line.when === undefined) && item.when !== undefined
        ? evaluator.perValue(item.when, supports.of(item.when))
        : undefined;
    if (single !== undefined) {
      addPerValue(lo, hi, form.valueBase, single, total);
      continue;
    }
    reasons.push(`BOM item ${item.key} is included by a condition on several questions`);
    for (const line of lines) {
      constantLo += Math.min(0, line.minor);
      constantHi += Math.max(0, line.minor);
    }
  }

  const percents: Array<{ percent: Money; conditional: boolean }> = [];
  let amountLo = 0;
  let amountHi = 0;
  const adjustments = model.pricing.adjustments;
  const hasPercents = adjustments.some((adjustment) => adjustment.percent !== undefined);
  for (const adjustment of adjustments) {
    if (adjustment.percent !== undefined) {
      percents.push({ percent: adjustment.percent, conditional: adjustment.when !== undefined });
      continue;
    }
    if (adjustment.amount === undefined)
      return none(`adjustment ${adjustment.key} is computed by an expression`);
    const amount = toMinor(adjustment.amount);
    if (Number.isNaN(amount)) return none(`adjustment ${adjustment.key} is out of range`);
    if (adjustment.when === undefined) {
      if (hasPercents) {
        amountLo += amount;
        amountHi += amount;
      } else {
        constantLo += amount;
        constantHi += amount;
      }
      continue;
    }
    const single = hasPercents
      ? undefined
      : evaluator.perValue(adjustment.when, supports.of(adjustment.when));
    if (single !== undefined) {
      addPerValue(lo, hi, form.valueBase, single, amount);
      continue;
    }
    reasons.push(`adjustment ${adjustment.key} applies by a condition the sum cannot follow`);
    if (hasPercents) {
      amountLo += Math.min(0, amount);
      amountHi += Math.max(0, amount);
    } else {
      constantLo += Math.min(0, amount);
      constantHi += Math.max(0, amount);
    }
  }
  if (!monotonePercents(percents))
    reasons.push('percent adjustments that are conditional or lower the total more than 100 %');

  let magnitude =
    Math.abs(constantLo) + Math.abs(constantHi) + Math.abs(amountLo) + Math.abs(amountHi);
  for (let i = 0; i < values; i++) magnitude += Math.max(Math.abs(lo[i]), Math.abs(hi[i]));
  if (!Number.isFinite(magnitude) || magnitude >= SAFE_TOTAL)
    return none('the prices are too large for exact bounds');
  return {
    weights: { lo, hi, negatedHi: hi.map((weight) => -weight) },
    constantLo,
    constantHi,
    percents,
    amountLo,
    amountHi,
    flat: lo.every((weight) => weight === 0) && hi.every((weight) => weight === 0),
    exact: reasons.length === 0,
    reason: reasons.length === 0 ? undefined : [...new Set(reasons)].join('; '),
  };
}

/**
 * Whether total = subtotal + Σ round(subtotal × p / 100) is non-decreasing in the
 * subtotal, so the extremes of the subtotal give the extremes of the total: every percent
 * unconditional and either all non-negative, or a single one of at least -100 (one minor
 * unit more of subtotal changes its rounded amount by at most one minor unit less).
 */
export function monotonePercents(
  percents: ReadonlyArray<{ percent: Money; conditional: boolean }>,
): boolean {
  if (percents.some((entry) => entry.conditional)) return false;
  if (percents.every((entry) => entry.percent.greaterThanOrEqualTo(0))) return true;
  return percents.length === 1 && percents[0].percent.greaterThanOrEqualTo(-100);
}

function addPerValue(
  lo: Float64Array,
  hi: Float64Array,
  valueBase: Int32Array,
  single: { layer: number; applies: boolean[] },
  amount: number,
): void {
  single.applies.forEach((applies, v) => {
    if (!applies) return;
    lo[valueBase[single.layer] + v] += amount;
    hi[valueBase[single.layer] + v] += amount;
  });
}

interface LiteralLine {
  when: Expression | undefined;
  minor: number;
}

/** An item and its children as lines of literal quantity and price, or undefined. */
function literalLines(
  item: CompiledBomItem,
  parentQuantity: Money | undefined,
  scale: number,
  mode: CompiledModel['pricing']['mode'],
): LiteralLine[] | undefined {
  if (item.quantity instanceof Expression || item.priceExpr !== undefined) return undefined;
  const own = item.quantity;
  const quantity = parentQuantity === undefined ? own : own.times(parentQuantity);
  const lines: LiteralLine[] = [];
  if (item.unitPrice !== undefined) {
    const minor = minorUnits(round(quantity.times(item.unitPrice), scale, mode), scale);
    if (Number.isNaN(minor)) return undefined;
    lines.push({ when: item.when, minor });
  } else lines.push({ when: item.when, minor: 0 });
  for (const child of item.children) {
    const inner = literalLines(child, quantity, scale, mode);
    if (inner === undefined) return undefined;
    lines.push(...inner);
  }
  return lines;
}

/**
 * Evaluates a condition that reads at most one single-value finite question for each of
 * its diagram values (its value index 0 is "no value").
 */
class TermEvaluator {
  private readonly context = new EvaluationContext();

  constructor(
    private readonly model: CompiledModel,
    private readonly domains: ReadonlyArray<FiniteDomain | undefined>,
  ) {
    for (const question of model.questions) this.context.set(question.key, null);
    for (const variable of model.variables) this.context.set(variable.key, null);
  }

  perValue(
    when: Expression,
    inputs: ReadonlySet<number> | undefined,
  ): { layer: number; applies: boolean[] } | undefined {
    if (inputs === undefined || inputs.size !== 1) return undefined;
    const q = [...inputs][0];
    const finite = this.domains[q];
    const layer = this.model.consistency.firstLayer[q];
    if (finite === undefined || finite.kind !== 'single' || layer < 0) return undefined;
    const question = this.model.questions[q];
    const applies = finite.values.map((value) => {
      this.context.set(question.key, value);
      this.loadVariables();
      return conditionOr(when, this.context, false);
    });
    this.context.set(question.key, null);
    this.loadVariables();
    return { layer, applies };
  }

  /** Every variable in value order (a model's variables are few next to its diagram). */
  private loadVariables(): void {
    const questionCount = this.model.questions.length;
    for (const node of this.model.valueOrder) {
      const variable = this.model.variables[node - questionCount];
      if (node < questionCount || variable === undefined) continue;
      const value = variable.expr.run(this.context);
      this.context.set(
        variable.key,
        typeof value === 'symbol' || value === undefined ? null : value,
      );
    }
  }
}
