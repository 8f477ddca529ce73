import type { ModelCore } from '../model-core.js';
import type { ConsistencyForm } from './form.js';

/**
 * Paths of the options whose value `kept` marks 0 (multi_choice: "selected" never kept):
 * with the diagram, the values no valid configuration uses; past the budget, the values
 * propagation removes with nothing answered.
 */
export function deadOptions(model: ModelCore, form: ConsistencyForm, kept: Uint8Array): string[] {
  const dead: string[] = [];
  for (const question of model.questions) {
    const first = form.firstLayer[question.index];
    if (first < 0 || (question.type !== 'choice' && question.type !== 'multi_choice')) continue;
    question.options.forEach((option, o) => {
      const at =
        question.type === 'choice' ? form.valueBase[first] + o + 1 : form.valueBase[first + o] + 1;
      if (kept[at] === 0) dead.push(`questions.${question.key}.options.${option.key}`);
    });
  }
  return dead;
}
