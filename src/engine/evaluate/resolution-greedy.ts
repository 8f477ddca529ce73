import type { CompiledModel, CompiledQuestion } from '../model.js';
import type { Problem } from '../problems.js';
import type { ResolutionChange } from '../types.js';
import type { AnswerUnit } from './answer-units.js';
import { propagatedCheck } from './propagated.js';
import { type Answers, answerLayers, type Pick } from './answer-layers.js';

/**
 * Past the compile budget: the forced pick first, then each answer (each selected option of
 * a multi_choice) in question order, kept when the propagation check (with its bounded
 * completion search) does not refute it with those kept before.
 */
export function greedily(
  model: CompiledModel,
  answers: Answers,
  pick: Pick | undefined,
  problems: Problem[],
): { changes: ResolutionChange[]; exact: boolean } {
  const forced = pick?.question;
  const check = propagatedCheck(model.consistency);
  const kept: AnswerUnit[] = [];
  const unitsOf = (question: CompiledQuestion, values: unknown[]): AnswerUnit[] => {
    const { layers, codes } = answerLayers(model, question, values);
    return layers.map((layer, i) => ({
      question: question.index,
      layers: [layer],
      values: [codes[i]],
    }));
  };
  if (pick !== undefined && forced !== undefined) {
    kept.push(...unitsOf(forced, pick.values));
    if (!check(kept)) {
      problems.push({
        code: 'resolution_impossible',
        message: `no valid configuration has ${forced.key} as asked`,
        path: `questions.${forced.key}`,
      });
      return { changes: [], exact: false };
    }
  }
  const changes: ResolutionChange[] = [];
  let dropped = 0;
  for (const question of model.questions) {
    const answer = answers[question.key];
    if (answer === undefined) continue;
    const picked = question === forced ? (pick as Pick).values : [];
    const units = unitsOf(question, answer.values);
    if (units.length === 0) continue;
    const keptValues: unknown[] = [];
    units.forEach((unit, i) => {
      const value = answer.values[question.type === 'multi_choice' ? i : 0];
      if (picked.includes(value)) keptValues.push(value);
      else if (check([...kept, unit])) {
        kept.push(unit);
        keptValues.push(value);
      } else if (question !== forced) dropped++;
    });
    if (keptValues.length === answer.values.length) continue;
    const from = question === forced ? (pick as Pick).before : answer.values;
    if (question !== forced || from.some((value) => !keptValues.includes(value)))
      changes.push({ question: question.key, from, to: keptValues });
    if (keptValues.length === 0) delete answers[question.key];
    else answers[question.key] = { values: keptValues };
  }
  // No change is minimal; one change is too, as the check refuted keeping every answer.
  return { changes, exact: dropped <= 1 };
}
