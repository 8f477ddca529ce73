import type { CompiledModel } from '../model.js';
import { runAtOnce, STEP_ITEMS } from '../slices.js';

/** What the diagram's rules name, per model (built once). */
export interface Mentions {
  /** Per question: the rules (keys) of the diagram whose table or expressions name it. */
  readonly byQuestion: ReadonlyArray<readonly string[]>;
  /** Per rule key of the diagram (only those): the questions it names. */
  readonly byRule: ReadonlyMap<string, readonly number[]>;
  /** Rule keys of the diagram's tables that always apply (no `when`). */
  readonly unconditionalTables: ReadonlySet<string>;
  /** Per question, per option: 1 when its `available_if` is compiled into the diagram. */
  readonly conditionsInDiagram: ReadonlyArray<Uint8Array>;
  /** Per question: 1 when a table or available_if outside the diagram can restrict it. */
  readonly restrictedOutside: Uint8Array;
  /** Sources (`rules.<key>`, `questions.<q>.options.<o>`) compiled into the diagram. */
  readonly inDiagram: ReadonlySet<string>;
  /** Per question: `[its key]`, frozen (a one-answer `conflicts_with`, shared like empty.ts). */
  readonly keyLists: ReadonlyArray<readonly string[]>;
}

const mentionsByModel = new WeakMap<CompiledModel, Mentions>();

export function mentionsOf(model: CompiledModel): Mentions {
  return mentionsByModel.get(model) ?? runAtOnce(mentionsInSteps(model));
}

/**
 * The same, built in steps the first time (a few ms per thousand questions and rules:
 * an evaluation of a large model pauses between them).
 */
export function* mentionsInSteps(model: CompiledModel): Generator<void, Mentions> {
  const known = mentionsByModel.get(model);
  if (known !== undefined) return known;
  const lists: string[][] = model.questions.map(() => []);
  const byRule = new Map<string, number[]>();
  const unconditionalTables = new Set<string>();
  const inDiagram = new Set(model.consistency.partSources);
  for (const rule of model.rules) {
    if (rule.index % STEP_ITEMS === STEP_ITEMS - 1) yield;
    if (!inDiagram.has(`rules.${rule.key}`)) continue;
    const named = new Set<number>();
    if (rule.table !== undefined) for (const column of rule.table.columns) named.add(column);
    for (const expression of [rule.when, rule.assert]) {
      for (const name of expression?.names ?? []) {
        const q = model.questionIndex.get(name);
        if (q !== undefined) named.add(q);
      }
    }
    for (const q of named) lists[q].push(rule.key);
    byRule.set(rule.key, [...named]);
    if (rule.table !== undefined && rule.when === undefined) unconditionalTables.add(rule.key);
  }
  const conditionsInDiagram: Uint8Array[] = [];
  for (const question of model.questions) {
    if (question.index % STEP_ITEMS === STEP_ITEMS - 1) yield;
    conditionsInDiagram.push(
      Uint8Array.from(question.options, (option) =>
        inDiagram.has(`questions.${question.key}.options.${option.key}`) ? 1 : 0,
      ),
    );
  }
  const restrictedOutside = Uint8Array.from(conditionsInDiagram, (flags, q) =>
    flags.some((flag, o) => flag === 0 && model.questions[q].options[o].availableIf !== undefined)
      ? 1
      : 0,
  );
  for (const rule of model.rules) {
    if (rule.table === undefined || byRule.has(rule.key)) continue;
    for (const column of rule.table.columns) restrictedOutside[column] = 1;
  }
  const keyLists = model.questions.map((question) => Object.freeze([question.key]));
  const result = {
    byQuestion: lists,
    byRule,
    unconditionalTables,
    conditionsInDiagram,
    restrictedOutside,
    inDiagram,
    keyLists,
  };
  mentionsByModel.set(model, result);
  return result;
}

/**
 * An option's local reason (a rule key, or its own key for `available_if`) comes from a
 * part the diagram does not hold (e.g. a rule whose `when` reads a number).
 */
export function outsideDiagram(
  model: CompiledModel,
  question: CompiledModel['questions'][number],
  reason: string,
): boolean {
  const option = question.optionIndex.get(reason);
  const known = mentionsOf(model);
  if (option !== undefined) return known.conditionsInDiagram[question.index][option] === 0;
  return !known.byRule.has(reason);
}

/**
 * Reasons for an option the diagram excludes while no single table or available_if
 * does (rules interact): the rules that name its question and one of the conflicting
 * answers' questions, else those naming its question. Cheap and deterministic, not
 * minimal (the minimal statement is `conflicts_with`).
 */
export function explainRules(
  model: CompiledModel,
  question: number,
  conflictsWith: readonly string[],
): string[] {
  const lists = mentionsOf(model).byQuestion;
  const own = lists[question];
  if (conflictsWith.length === 0) return [...own];
  const others = new Set<string>();
  for (const key of conflictsWith) {
    const q = model.questionIndex.get(key);
    if (q !== undefined) for (const rule of lists[q]) others.add(rule);
  }
  const shared = own.filter((rule) => others.has(rule));
  return shared.length > 0 ? shared : [...own];
}
