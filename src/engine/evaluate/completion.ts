import { finiteDomain } from '../consistency/domains.js';
import { weightedCircuit } from '../consistency/dnnf-guided.js';
import { circuitMins } from '../consistency/dnnf-weighted.js';
import { layeredMins, type MinForm } from '../consistency/weighted.js';
import type { CompiledModel } from '../model.js';
import { toAnswerValues } from '../question-values.js';
import { isRecord } from '../validate/reader.js';
import { priceTerms } from './price-terms.js';
import { answerLayers, type Answers } from './answer-layers.js';

/** What `effectiveAnswers` reads of a line's question (either view has it). */
interface ShownQuestion {
  readonly key: string;
  readonly source: string;
  readonly visible: boolean;
}

/**
 * The keys of the answers that take effect in an evaluated line (the visible questions the
 * user answered): what `cheapestCompletion` keeps fixed.
 */
export function effectiveAnswers(questions: readonly ShownQuestion[]): Set<string> {
  return new Set(
    questions
      .filter((question) => question.source === 'user' && question.visible)
      .map((question) => question.key),
  );
}

/**
 * `complete: 'cheapest'` (docs/model-format.md "Guided configuration"): the answers with
 * every unanswered finite question filled from a least-total valid completion of the
 * effective user answers (`effective`: the visible questions the user answered; one
 * (min, +) pass pair over the diagram, or the decision-DNNF past its budget, on the least
 * price weights), and the keys it filled. A hidden question's answer (discarded) is
 * replaced when the completion shows it. With neither form, or when the answers have no
 * completion, the answers as they are.
 */
export function cheapestCompletion(
  model: CompiledModel,
  raw: unknown,
  effective: ReadonlySet<string>,
): { answers: unknown; completed: string[] } {
  const form = model.consistency;
  const circuit = form.compiled ? undefined : weightedCircuit(form);
  if ((!form.compiled && circuit === undefined) || !isRecord(raw))
    return { answers: raw, completed: [] };
  const answers: Answers = {};
  const fixed = new Int32Array(form.domain.length).fill(-1);
  for (const key of Object.keys(raw)) {
    const answer = raw[key];
    answers[key] = answer as Answers[string];
    const index = model.questionIndex.get(key);
    const values = isRecord(answer) && Array.isArray(answer.values) ? answer.values : undefined;
    if (index === undefined || values === undefined || !effective.has(key)) continue;
    const question = model.questions[index];
    const { layers, codes } = answerLayers(model, question, values);
    layers.forEach((layer, i) => (fixed[layer] = codes[i]));
  }
  const weight =
    priceTerms(model).weights?.lo ?? new Float64Array(form.valueBase[form.domain.length]);
  const path =
    circuit === undefined
      ? leastSolution(layeredMins(form), weight, fixed)
      : leastSolution(circuitMins(circuit), weight, fixed);
  if (path === undefined) return { answers: raw, completed: [] };
  const completed: string[] = [];
  for (const question of model.questions) {
    const first = form.firstLayer[question.index];
    const finite = finiteDomain(question);
    if (first < 0 || finite === undefined) continue;
    const values =
      finite.kind === 'multi'
        ? question.options.filter((_, o) => path[first + o] === 1).map((option) => option.key)
        : toAnswerValues(finite.values[path[first]]);
    if (values.length === 0) {
      // A discarded (hidden) answer the completion would show with another value: gone.
      if (!effective.has(question.key) && answers[question.key] !== undefined)
        answers[question.key] = { values: [] };
      continue;
    }
    if (effective.has(question.key)) {
      // A multi_choice answer's unselected options are open: the completion may add some.
      if (finite.kind === 'multi') answers[question.key] = { values };
      continue;
    }
    answers[question.key] = { values };
    completed.push(question.key);
  }
  return { answers, completed };
}

/** A least-weight solution under the restrictions (undefined: none). */
function leastSolution<P extends { readonly best: number; readonly examined: number }>(
  mins: MinForm<P>,
  weight: Float64Array,
  fixed: Int32Array,
): Int32Array | undefined {
  const pass = mins.pass(weight, fixed);
  return pass.best === Infinity ? undefined : mins.witness(weight, fixed, pass);
}
