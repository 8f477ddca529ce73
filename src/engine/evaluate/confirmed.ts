import type { ConsistencyForm } from '../consistency/form.js';
import type { CompletionSearch } from '../consistency/search.js';
import type { CompiledModel } from '../model.js';

/**
 * The propagator's closures the caller computed already: of all the answers (`full`) and,
 * per answered layer, of the answers without it (undefined: no consistent closure).
 */
export interface AnswerClosures {
  readonly full: Uint8Array | undefined;
  readonly withoutAnswer: ReadonlyMap<number, Uint8Array | undefined>;
}

/**
 * Past the compile budget, the values propagation keeps (`supported`, per value) are
 * confirmed by finding a valid completion through each (search.ts), so that "available"
 * stays a guarantee without the diagram (docs/model-format.md "Consistency"). A value whose
 * search proves there is none becomes unsupported (0); one the budget left undecided stays
 * supported and is returned in the unconfirmed flags (1 = shown available, not confirmed).
 *
 * The groups mirror `supportedValues` (propagated.ts): values of unanswered layers against
 * all the answers; an answered layer's values against the answers of the other layers.
 * One completion confirms every value it takes on the group's layers.
 */
export function confirmSupport(
  form: ConsistencyForm,
  search: CompletionSearch,
  fixed: Int32Array,
  supported: Uint8Array,
  closures: AnswerClosures,
): Uint8Array {
  const { valueBase } = form;
  const layers = form.domain.length;
  const wanted = new Uint8Array(valueBase[layers]);
  const free: number[] = [];
  for (let layer = 0; layer < layers; layer++) if (fixed[layer] < 0) free.push(layer);
  const completed = confirmGroup(form, search, closures.full, supported, wanted, free);
  for (let layer = 0; layer < layers; layer++) {
    const answer = fixed[layer];
    if (answer < 0) continue;
    // A completion of all the answers takes this answer: it is confirmed already.
    const known = completed ? answer : -1;
    const domains = closures.withoutAnswer.get(layer);
    confirmGroup(form, search, domains, supported, wanted, [layer], known);
  }
  // What is still wanted is shown available but was not confirmed within the budget.
  return wanted;
}

/**
 * Confirms or refutes the supported values of `group` (free layers of the closure
 * `domains`; a single layer may come with a value `known` to be confirmed). Whether a
 * completion was found.
 */
function confirmGroup(
  form: ConsistencyForm,
  search: CompletionSearch,
  domains: Uint8Array | undefined,
  supported: Uint8Array,
  wanted: Uint8Array,
  group: readonly number[],
  known = -1,
): boolean {
  const { valueBase } = form;
  // Value 0 (no answer, an option not selected) is never shown: it needs no confirming.
  for (const layer of group)
    for (let at = valueBase[layer] + 1; at < valueBase[layer + 1]; at++) wanted[at] = supported[at];
  if (known > 0) wanted[valueBase[group[0]] + known] = 0;
  const confirm = (values: Int32Array): void => {
    for (const layer of group) wanted[valueBase[layer] + values[layer]] = 0;
  };
  const refute = (layer: number, from: number, to: number): void => {
    supported.fill(0, valueBase[layer] + from, valueBase[layer] + to);
    wanted.fill(0, valueBase[layer] + from, valueBase[layer] + to);
  };
  // One completion first: it confirms many values at once, or proves the group has none.
  const any = domains === undefined ? 'none' : search.findFrom(domains, wanted);
  if (any === 'none') {
    for (const layer of group) refute(layer, 1, form.domain[layer]);
    return false;
  }
  if (any !== 'unknown') confirm(any);
  for (const layer of group) {
    for (let value = 1; value < form.domain[layer]; value++) {
      if (wanted[valueBase[layer] + value] === 0) continue;
      if (search.spent) return any !== 'unknown';
      const narrowed = search.narrow(domains as Uint8Array, layer, value);
      const found = narrowed === undefined ? 'none' : search.findFrom(narrowed, wanted);
      if (found === 'none') refute(layer, value, value + 1);
      else if (found !== 'unknown') confirm(found);
    }
  }
  return any !== 'unknown';
}

/**
 * The paths of the values shown available without a confirmed completion: options
 * (`questions.<q>.options.<o>`) and boolean or integer values (`questions.<q>.values.<v>`).
 */
export function unconfirmedPaths(model: CompiledModel, unconfirmed: Uint8Array): string[] {
  const form = model.consistency;
  const paths: string[] = [];
  for (const question of model.questions) {
    const first = form.firstLayer[question.index];
    if (first < 0) continue;
    const prefix = `questions.${question.key}`;
    if (question.type === 'multi_choice') {
      question.options.forEach((option, o) => {
        if (unconfirmed[form.valueBase[first + o] + 1] === 1)
          paths.push(`${prefix}.options.${option.key}`);
      });
      continue;
    }
    for (let value = 1; value < form.domain[first]; value++) {
      if (unconfirmed[form.valueBase[first] + value] === 0) continue;
      if (question.type === 'choice')
        paths.push(`${prefix}.options.${question.options[value - 1].key}`);
      else if (question.type === 'boolean') paths.push(`${prefix}.values.${value === 2}`);
      else if (question.type === 'integer')
        paths.push(`${prefix}.values.${(question.min ?? 0) + (value - 1) * (question.step ?? 1)}`);
    }
  }
  return paths;
}
