import { domainIndex, finiteDomain } from '../consistency/domains.js';
import { weightedCircuit } from '../consistency/dnnf-guided.js';
import { circuitNearest } from '../consistency/dnnf-nearest.js';
import { boundedNearest } from '../consistency/nearest-checks.js';
import type { CompiledModel, CompiledQuestion } from '../model.js';
import type { Problem } from '../problems.js';
import { convertElement, toAnswerValues } from '../question-values.js';
import type { EvaluationRequest, ResolutionChange } from '../types.js';
import { isRecord } from '../validate/reader.js';
import { priceTerms } from './price-terms.js';
import { greedily } from './resolution-greedy.js';
import { type Answers, answerLayers, type Pick } from './answer-layers.js';

/** A resolution: the answers A', what changed, and whether A' is proven nearest. */
export interface Resolved {
  readonly answers: Answers;
  readonly changes: ResolutionChange[];
  readonly exact: boolean;
  readonly problems: Problem[];
}

/** Tie-break passes one resolution may run (each a pass pair over the diagram). */
const TIE_PASSES = 16;

/**
 * The nearest valid configuration of the request's answers (docs/model-format.md
 * "Guided configuration", docs/adr/0141): answers that do not fit the model are dropped,
 * the forced pick (if any) is set, then the fewest other user answers change, over the
 * diagram or, past its budget, the decision-DNNF (exact both), else greedily in question
 * order with the propagation check (`exact` only when it changed at most one answer,
 * which is then minimal).
 */
export function resolveAnswers(
  model: CompiledModel,
  request: EvaluationRequest,
  resolve: NonNullable<EvaluationRequest['resolve']>,
): Resolved {
  const problems: Problem[] = [];
  const changes: ResolutionChange[] = [];
  const answers = fittingAnswers(model, request.questions, changes);
  let pick: Pick | undefined;
  if (resolve !== true) {
    const question = model.questions[model.questionIndex.get(resolve.question) ?? -1];
    const values = question === undefined ? undefined : pickedValues(question, resolve.value);
    if (question === undefined || values === undefined) {
      problems.push({
        code: 'invalid_resolve',
        message: `resolve: '${String(resolve.value)}' is not a value of ${resolve.question}`,
        path: 'resolve',
      });
    } else {
      const whole = question.type === 'multi_choice' && Array.isArray(resolve.value);
      const before = answers[question.key]?.values ?? [];
      pick = { question, values, whole, before };
      // A multi_choice option joins the selection; its other options may then change freely.
      const merged =
        question.type !== 'multi_choice' || whole ? values : [...new Set([...before, ...values])];
      answers[question.key] = { values: merged };
    }
  }
  const form = model.consistency;
  const result =
    form.compiled || weightedCircuit(form) !== undefined
      ? overDiagram(model, answers, pick, problems)
      : greedily(model, answers, pick, problems);
  changes.push(...result.changes);
  changes.sort(
    (a, b) =>
      (model.questionIndex.get(a.question) ?? Infinity) -
      (model.questionIndex.get(b.question) ?? Infinity),
  );
  return { answers, changes, exact: result.exact, problems };
}

/** Drops what does not fit the model (listing each as a change) and returns the rest. */
export function fittingAnswers(
  model: CompiledModel,
  raw: unknown,
  changes: ResolutionChange[],
): Answers {
  const answers: Answers = {};
  if (!isRecord(raw)) return answers;
  for (const key of Object.keys(raw)) {
    const answer = raw[key];
    const values = isRecord(answer) && Array.isArray(answer.values) ? answer.values : undefined;
    const index = model.questionIndex.get(key);
    if (index === undefined || values === undefined) {
      changes.push({ question: key, from: values ?? [], to: [] });
      continue;
    }
    const question = model.questions[index];
    const kept: unknown[] = [];
    for (const value of values) {
      if (!fits(question, value) || kept.includes(value)) continue;
      if (question.type !== 'multi_choice' && kept.length > 0) continue;
      kept.push(value);
    }
    if (question.type !== 'multi_choice' && values.length > 1) kept.length = 0;
    if (kept.length !== values.length) changes.push({ question: key, from: values, to: kept });
    if (kept.length > 0) answers[key] = { values: kept };
  }
  return answers;
}

/** One value fits the question: its type, an option, a finite integer's range and step, min/max. */
function fits(question: CompiledQuestion, value: unknown): boolean {
  const converted = convertElement(question, value);
  if (!converted.ok) return false;
  const finite = finiteDomain(question);
  if (finite?.kind === 'single' && question.type === 'integer')
    return domainIndex(question, converted.value) > 0;
  if (question.type === 'integer' || question.type === 'number') {
    const number = Number(converted.value);
    if (question.min !== undefined && number < question.min) return false;
    if (question.max !== undefined && number > question.max) return false;
  }
  return true;
}

/** The forced pick's values (a multi_choice: one option key, or a whole list of them). */
function pickedValues(question: CompiledQuestion, value: unknown): unknown[] | undefined {
  if (question.type === 'multi_choice') {
    const list = Array.isArray(value) ? value : [value];
    return list.every((item) => fits(question, item)) ? [...new Set(list)] : undefined;
  }
  return fits(question, value) ? [value] : undefined;
}

function overDiagram(
  model: CompiledModel,
  answers: Answers,
  pick: Pick | undefined,
  problems: Problem[],
): { changes: ResolutionChange[]; exact: boolean } {
  const forced = pick?.question;
  const form = model.consistency;
  const layers = form.domain.length;
  const target = new Int32Array(layers).fill(-1);
  const fixed = new Int32Array(layers).fill(-1);
  const order: number[] = [];
  for (const question of model.questions) {
    const answer = answers[question.key];
    if (answer === undefined) continue;
    if (question === forced) continue;
    const { layers: own, codes } = answerLayers(model, question, answer.values);
    own.forEach((layer, i) => {
      target[layer] = codes[i];
      order.push(layer);
    });
  }
  if (pick !== undefined) {
    const { layers: own, codes } = answerLayers(model, pick.question, pick.values);
    own.forEach((layer, i) => (fixed[layer] = codes[i]));
    // A multi_choice forced as a whole list: its other options are unselected.
    const first = form.firstLayer[pick.question.index];
    if (pick.whole && first >= 0)
      for (let o = 0; o < pick.question.options.length; o++)
        if (fixed[first + o] < 0) fixed[first + o] = 0;
  }
  const query = {
    target,
    fixed,
    price: priceTerms(model).weights?.lo,
    order,
    maxPasses: TIE_PASSES,
  };
  // Past the diagram's budget, the decision-DNNF's lexicographic pass: exact, ties as ranked.
  const circuit = form.compiled ? undefined : weightedCircuit(form);
  const nearest =
    circuit === undefined
      ? boundedNearest(form, query)
      : { ...circuitNearest(circuit, query), exact: true };
  if (nearest === undefined || nearest.path === undefined) {
    problems.push({
      code: 'resolution_impossible',
      message: `no valid configuration has ${forced?.key ?? 'these answers'} as asked`,
      path: forced === undefined ? 'resolve' : `questions.${forced.key}`,
    });
    return { changes: [], exact: form.exact };
  }
  const path = nearest.path;
  const changes: ResolutionChange[] = [];
  for (const question of model.questions) {
    const answer = answers[question.key];
    const first = form.firstLayer[question.index];
    if (answer === undefined || first < 0) continue;
    const after = valuesOnPath(model, question, answer.values, path);
    if (sameValues(after, answer.values)) continue;
    // The pick's own question: listed only when it loses an option selected before.
    const from = question === forced ? (pick as Pick).before : answer.values;
    if (question !== forced || from.some((value) => !after.includes(value)))
      changes.push({ question: question.key, from, to: after });
    if (after.length === 0) delete answers[question.key];
    else answers[question.key] = { values: after };
  }
  return { changes, exact: form.exact && nearest.exact };
}

/** A question's answer on a path: its value there (single), or the selected options it keeps. */
function valuesOnPath(
  model: CompiledModel,
  question: CompiledQuestion,
  before: unknown[],
  path: Int32Array,
): unknown[] {
  const first = model.consistency.firstLayer[question.index];
  if (question.type === 'multi_choice')
    return before.filter(
      (key) => path[first + (question.optionIndex.get(key as string) as number)] === 1,
    );
  const finite = finiteDomain(question);
  if (finite?.kind !== 'single') return before;
  return toAnswerValues(finite.values[path[first]]);
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
