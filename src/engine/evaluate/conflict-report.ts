import type { CompiledModel } from '../model.js';
import type { ConflictAnswer, Problem } from '../problems.js';
import { toAnswerValues } from '../question-values.js';
import type { LineRule } from '../types.js';
import { indirectRules, type Mentions, mentionsOf } from './rule-mentions.js';
import type { EvaluationState } from './state.js';

/**
 * How conflicting answers are reported (docs/adr/0092-one-problem-per-conflict.md):
 * one `conflict` problem naming every answer of the minimal conflicting set and the
 * rules through which they conflict; those rules' failures and the answers'
 * `option_unavailable` for the same cause are not reported again; options of questions
 * that no answer could make available while the other answers conflict say
 * `blocked_by_conflict` instead of naming rules that have nothing to do with them.
 */

/** The reason of an option no value of whose question has a completion (the other answers conflict). */
export const BLOCKED_BY_CONFLICT = 'blocked_by_conflict';
const BLOCKED: readonly string[] = Object.freeze([BLOCKED_BY_CONFLICT]);

/** The question indices of the conflicting set, or undefined when the answers do not conflict. */
function conflictQuestions(model: CompiledModel, state: EvaluationState): number[] | undefined {
  if (state.conflict === undefined) return undefined;
  const indices: number[] = [];
  for (const key of state.conflict) {
    const q = model.questionIndex.get(key);
    if (q !== undefined) indices.push(q);
  }
  return indices.sort((a, b) => a - b);
}

/**
 * The answer checks: whether an answer's local reasons (rules and its option's own
 * `available_if`) all lie within the conflict, so the `conflict` problem says it
 * already. The rules among them are then named by that problem (`state.conflictRules`).
 */
export function explainedByConflict(
  model: CompiledModel,
  state: EvaluationState,
  question: number,
  option: number,
  reasons: readonly string[],
): boolean {
  const set = conflictQuestions(model, state);
  if (set === undefined || !set.includes(question)) return false;
  const mentions = mentionsOf(model);
  const withOther = (questions: readonly number[]): boolean =>
    set.length === 1 || questions.some((q) => q !== question && set.includes(q));
  const ownKey = model.questions[question].options[option].key;
  for (const reason of reasons) {
    if (
      reason === ownKey
        ? withOther(mentions.reads[question])
        : withOther(ruleQuestions(model, reason))
    )
      continue;
    return false;
  }
  for (const reason of reasons) if (reason !== ownKey) state.conflictRules.push(reason);
  return true;
}

/**
 * The questions a rule names: as the diagram holds it (through variables), else (a rule
 * kept outside it, e.g. a table with a number column) its table columns and the
 * questions its expressions name directly.
 */
function ruleQuestions(model: CompiledModel, key: string): readonly number[] {
  const known = mentionsOf(model).byRule.get(key);
  if (known !== undefined) return known;
  const rule = model.rules.find((candidate) => candidate.key === key);
  if (rule === undefined) return [];
  const questions = new Set<number>(rule.table?.columns ?? []);
  for (const q of rule.logic?.questions ?? []) questions.add(q);
  for (const expression of [rule.when, rule.assert])
    for (const name of expression?.names ?? []) {
      const q = model.questionIndex.get(name);
      if (q !== undefined) questions.add(q);
    }
  return [...questions];
}

/**
 * After the answer checks and the rules: the `conflict` problems, at `at` in the errors
 * (where the answer checks ended), and without the `rule_failed` errors of the rules they
 * name. One per answer of the set, as docs/model-format.md "Consistency" requires (a
 * client marks each field), each naming the whole set and the rules: one cause, the same
 * `answers` and `message` (docs/adr/0092). A single answer that has its own error
 * (too_many_selected…) already says why and gets no conflict problem.
 */
export function reportConflict(
  model: CompiledModel,
  state: EvaluationState,
  rules: readonly LineRule[],
  at: number,
): void {
  const set = conflictQuestions(model, state);
  if (set === undefined || set.length === 0) return;
  if (set.length === 1) {
    const prefix = `questions.${model.questions[set[0]].key}`;
    const own = state.errors
      .slice(0, at)
      .some((error) => error.path === prefix || error.path?.startsWith(`${prefix}.`) === true);
    if (own) return;
  }
  const ruleKeys = conflictRules(model, state, rules, set);
  const answers: ConflictAnswer[] = set.map((q) => ({
    question: model.questions[q].key,
    values: toAnswerValues(state.values[q]),
  }));
  const message = conflictMessage(answers, ruleKeys, rules);
  const problems: Problem[] = answers.map((answer) => ({
    code: 'conflict',
    message,
    path: `questions.${answer.question}`,
    answers,
    rules: ruleKeys,
  }));
  const failed = new Set(ruleKeys.map((key) => `rules.${key}`));
  const kept = state.errors.filter(
    (error, i) =>
      i < at || error.code !== 'rule_failed' || error.path === undefined || !failed.has(error.path),
  );
  kept.splice(at, 0, ...problems);
  state.errors.length = 0;
  state.errors.push(...kept);
}

/**
 * The rules of a conflict, in model order: the failed `error` rules that name an answer
 * of the set and no other question with a value; the rules the answers'
 * own local reasons name (explainedByConflict); when there are none (the answers
 * conflict through unanswered questions), the rules on the shortest connections between
 * the answers' questions (for a single answer, the rules that reach it). Deterministic,
 * not minimal.
 */
function conflictRules(
  model: CompiledModel,
  state: EvaluationState,
  lines: readonly LineRule[],
  set: readonly number[],
): string[] {
  const mentions = mentionsOf(model);
  const found = new Set(state.conflictRules);
  for (const rule of model.rules) {
    if (rule.severity !== 'error' || lines[rule.index]?.status !== 'failed') continue;
    const withValue = ruleQuestions(model, rule.key).filter(
      (q) => state.values[q] !== null && state.visible[q],
    );
    if (withValue.some((q) => set.includes(q)) && withValue.every((q) => set.includes(q)))
      found.add(rule.key);
  }
  if (found.size === 0) {
    if (set.length === 1) {
      const direct = mentions.byQuestion[set[0]];
      for (const rule of direct.length > 0 ? direct : indirectRules(mentions, set[0]))
        found.add(rule);
    } else connectingRules(model, mentions, set, found);
  }
  return model.rules.filter((rule) => found.has(rule.key)).map((rule) => rule.key);
}

/**
 * The rules on a shortest connection from the first question of the set to each other
 * one, through rules (a rule joins the questions it names) and through the questions'
 * own conditions (`visible_if`, `required`, `available_if` reading another question).
 */
function connectingRules(
  model: CompiledModel,
  mentions: Mentions,
  set: readonly number[],
  into: Set<string>,
): void {
  const from = distances(model, mentions, set[0]);
  for (const target of set.slice(1)) {
    const length = from[target];
    if (length < 0) continue;
    const back = distances(model, mentions, target);
    for (const [rule, questions] of mentions.byRule) {
      let near = Infinity;
      let far = Infinity;
      for (const q of questions) {
        if (from[q] >= 0) near = Math.min(near, from[q]);
        if (back[q] >= 0) far = Math.min(far, back[q]);
      }
      if (near + 1 + far === length) into.add(rule);
    }
  }
}

/** Breadth first from a question: per question its distance (-1 when not connected). */
function distances(model: CompiledModel, mentions: Mentions, from: number): Int32Array {
  const distance = new Int32Array(model.questions.length).fill(-1);
  const expanded = new Set<string>();
  distance[from] = 0;
  let level = [from];
  while (level.length > 0) {
    const next: number[] = [];
    const visit = (q: number, step: number): void => {
      if (distance[q] >= 0) return;
      distance[q] = step;
      next.push(q);
    };
    for (const q of level) {
      const step = distance[q] + 1;
      for (const rule of mentions.byQuestion[q]) {
        if (expanded.has(rule)) continue;
        expanded.add(rule);
        for (const other of mentions.byRule.get(rule) ?? []) visit(other, step);
      }
      for (const other of mentions.reads[q]) visit(other, step);
      for (const other of mentions.readBy[q]) visit(other, step);
    }
    level = next;
  }
  return distance;
}

function conflictMessage(
  answers: readonly ConflictAnswer[],
  rules: readonly string[],
  lines: readonly LineRule[],
): string {
  const stated = answers.map(
    ({ question, values }) =>
      `${question} = ${values.length === 1 ? JSON.stringify(values[0]) : JSON.stringify(values)}`,
  );
  const byKey = new Map(lines.map((line) => [line.key, line.message]));
  const why =
    rules.length === 0
      ? ''
      : ` (${rules.map((key) => `${key}: ${byKey.get(key) ?? key}`).join('; ')})`;
  return answers.length === 1
    ? `the answer ${stated[0]} has no valid completion${why}; change it`
    : `the answers ${stated.join(', ')} have no valid completion together${why}; change one of them`;
}

/**
 * When the user's answers conflict: an option unavailable without a local reason, of a
 * question none of whose values has a completion with the other answers (they conflict
 * among themselves), is blocked by that conflict, not by a rule of its own.
 */
export function markBlockedOptions(model: CompiledModel, state: EvaluationState): void {
  const supported = state.valueSupport;
  // Nothing to blame (no answer in the set: the model alone has no completion): not blocked.
  if (state.conflict === undefined || state.conflict.length === 0 || supported === undefined)
    return;
  const form = model.consistency;
  const open = (layer: number): boolean => {
    for (let v = form.valueBase[layer]; v < form.valueBase[layer + 1]; v++)
      if (supported[v] === 1) return true;
    return false;
  };
  for (const question of model.questions) {
    if (question.type !== 'choice' && question.type !== 'multi_choice') continue;
    const first = form.firstLayer[question.index];
    const reasons = state.unavailableBecause[question.index];
    if (first < 0 || reasons === undefined) continue;
    const local = state.answerReasons?.[question.index];
    for (let o = 0; o < question.options.length; o++) {
      if (reasons[o] === undefined || (local?.[o]?.length ?? 0) > 0) continue;
      if (!open(question.type === 'choice' ? first : first + o)) reasons[o] = BLOCKED;
    }
  }
}
