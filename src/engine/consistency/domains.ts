import type { CelValue, CompiledQuestion } from '../model-core.js';
import type { ModelCore } from '../model-core.js';
import { valueBases } from './form.js';

/** Admissible values of an `integer` question at most this many to be finite (model-format.md). */
export const MAX_INTEGER_VALUES = 1_000;

/**
 * The finite domain of a question (docs/model-format.md "Consistency"): value index 0 is
 * "no value" (unanswered or hidden); a multi_choice is one boolean layer per option
 * (0 not selected, 1 selected), so its "no value" is every layer at 0.
 */
export type FiniteDomain =
  | { readonly kind: 'single'; readonly values: readonly CelValue[] }
  | { readonly kind: 'multi'; readonly options: number };

/** The finite domain of a question, or undefined for number, text and unbounded integer. */
export function finiteDomain(question: CompiledQuestion): FiniteDomain | undefined {
  switch (question.type) {
    case 'choice':
      return { kind: 'single', values: [null, ...question.options.map((option) => option.key)] };
    case 'multi_choice':
      return { kind: 'multi', options: question.options.length };
    case 'boolean':
      return { kind: 'single', values: [null, false, true] };
    case 'integer': {
      const { min, max } = question;
      if (min === undefined || max === undefined) return undefined;
      const step = question.step ?? 1;
      if (!Number.isInteger(min) || !Number.isInteger(step) || step <= 0) return undefined;
      const count = max < min ? 0 : Math.floor((max - min) / step) + 1;
      if (count > MAX_INTEGER_VALUES) return undefined;
      const values: CelValue[] = [null];
      for (let k = 0; k < count; k++) values.push(BigInt(min + k * step));
      return { kind: 'single', values };
    }
    default:
      return undefined;
  }
}

/** The layers of the diagram: which question (and option) each one is, in diagram order. */
export interface LayerPlan {
  readonly domain: Int32Array;
  readonly layerQuestion: Int32Array;
  /** multi_choice option of the layer; -1 for a single-value question. */
  readonly layerOption: Int32Array;
  /** Per question: its first layer (-1 when not finite) and how many it has. */
  readonly firstLayer: Int32Array;
  readonly layerCount: Int32Array;
  /** Per question: the finite domain (undefined when not finite). */
  readonly domains: ReadonlyArray<FiniteDomain | undefined>;
}

/** The layer fields every consistency form starts with, built once per compile. */
export function layerFields(plan: LayerPlan) {
  return {
    domain: plan.domain,
    layerQuestion: plan.layerQuestion,
    layerOption: plan.layerOption,
    firstLayer: plan.firstLayer,
    layerCount: plan.layerCount,
    valueBase: valueBases(plan.domain),
  };
}
export type LayerFields = ReturnType<typeof layerFields>;

export function planLayers(
  model: ModelCore,
  domains: ReadonlyArray<FiniteDomain | undefined>,
  questionOrder: readonly number[],
): LayerPlan {
  const domain: number[] = [];
  const layerQuestion: number[] = [];
  const layerOption: number[] = [];
  const firstLayer = new Int32Array(model.questions.length).fill(-1);
  const layerCount = new Int32Array(model.questions.length);
  for (const q of questionOrder) {
    const finite = domains[q];
    if (finite === undefined) continue;
    firstLayer[q] = domain.length;
    if (finite.kind === 'single') {
      domain.push(finite.values.length);
      layerQuestion.push(q);
      layerOption.push(-1);
      layerCount[q] = 1;
    } else {
      for (let o = 0; o < finite.options; o++) {
        domain.push(2);
        layerQuestion.push(q);
        layerOption.push(o);
      }
      layerCount[q] = finite.options;
    }
  }
  return {
    domain: Int32Array.from(domain),
    layerQuestion: Int32Array.from(layerQuestion),
    layerOption: Int32Array.from(layerOption),
    firstLayer,
    layerCount,
    domains,
  };
}

/** The CEL value of question `q` under a full layer assignment (null: no value). */
export function questionValue(
  plan: LayerPlan,
  question: CompiledQuestion,
  assignment: Int32Array,
): CelValue | null {
  const finite = plan.domains[question.index] as FiniteDomain;
  const first = plan.firstLayer[question.index];
  if (finite.kind === 'single') return finite.values[assignment[first]];
  const keys: string[] = [];
  for (let o = 0; o < finite.options; o++)
    if (assignment[first + o] === 1) keys.push(question.options[o].key);
  return keys.length === 0 ? null : keys;
}

/**
 * The index of a CEL value in the finite domain of a single-value question (1…; 0 is
 * "no value"), or -1 when the value is not in it (a multi_choice, an integer off range
 * or step, an unknown option). The one encoding of values as diagram values: table
 * cells at compile, answers at evaluation.
 */
export function domainIndex(question: CompiledQuestion, value: CelValue | null): number {
  switch (question.type) {
    case 'choice': {
      const option = typeof value === 'string' ? question.optionIndex.get(value) : undefined;
      return option === undefined ? -1 : option + 1;
    }
    case 'boolean':
      return value === true ? 2 : value === false ? 1 : -1;
    case 'integer': {
      const { min, max } = question;
      const step = question.step ?? 1;
      if (typeof value !== 'bigint' || min === undefined || max === undefined) return -1;
      if (!Number.isInteger(min) || !Number.isInteger(step) || step <= 0 || value > max) return -1;
      const offset = value - BigInt(min);
      if (offset < 0n || offset % BigInt(step) !== 0n) return -1;
      return Number(offset / BigInt(step)) + 1;
    }
    default:
      return -1;
  }
}
