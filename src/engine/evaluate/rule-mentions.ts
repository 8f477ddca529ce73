import { derived } from '../derived.js';
import type { Expression } from '../cel/expression.js';
import type { CompiledModel } from '../model.js';

/** What the diagram's rules name, per model (built once). */
export interface Mentions {
  /**
   * Per question: the rules (keys) of the diagram whose table or expressions name it,
   * directly or through variables.
   */
  readonly byQuestion: ReadonlyArray<readonly string[]>;
  /** Per rule key of the diagram (only those): the questions it names (through variables too). */
  readonly byRule: ReadonlyMap<string, readonly number[]>;
  /**
   * Per question: the questions whose value its parts in the diagram read (its
   * `visible_if` and `required`, its options' `available_if`; through variables too).
   */
  readonly reads: ReadonlyArray<readonly number[]>;
  /** Per question: the questions whose parts in the diagram read it (`reads` reversed). */
  readonly readBy: ReadonlyArray<readonly number[]>;
  /** Per question, filled on first use: the rules that reach it indirectly (indirectRules). */
  readonly indirect: Array<readonly string[] | undefined>;
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

/** Where a model keeps its mentions (derived.ts). */
const MENTIONS = Symbol('mentions');

/** Built once per model (a few ms per thousand questions and rules), then kept with it. */
export function mentionsOf(model: CompiledModel): Mentions {
  return derived(model, MENTIONS, () => buildMentions(model));
}

function buildMentions(model: CompiledModel): Mentions {
  const lists: string[][] = model.questions.map(() => []);
  const byRule = new Map<string, number[]>();
  const unconditionalTables = new Set<string>();
  const inDiagram = new Set(model.consistency.partSources);
  const questionsOf = variableQuestions(model);
  const read = (expression: Expression | boolean | undefined, into: Set<number>): void => {
    if (typeof expression !== 'object') return;
    for (const name of expression.names) {
      const q = model.questionIndex.get(name);
      if (q !== undefined) into.add(q);
      else for (const input of questionsOf.get(name) ?? []) into.add(input);
    }
  };
  for (const rule of model.rules) {
    if (!inDiagram.has(`rules.${rule.key}`)) continue;
    const named = new Set<number>();
    if (rule.table !== undefined) for (const column of rule.table.columns) named.add(column);
    if (rule.logic !== undefined) for (const q of rule.logic.questions) named.add(q);
    read(rule.when, named);
    read(rule.assert, named);
    for (const q of named) lists[q].push(rule.key);
    byRule.set(rule.key, [...named]);
    if (rule.table !== undefined && rule.when === undefined) unconditionalTables.add(rule.key);
  }
  const conditionsInDiagram: Uint8Array[] = [];
  const reads: number[][] = [];
  const readBy: number[][] = model.questions.map(() => []);
  for (const question of model.questions) {
    const inputs = new Set<number>();
    if (inDiagram.has(`questions.${question.key}`)) {
      read(question.visibleIf, inputs);
      read(question.required, inputs);
    }
    for (const option of question.options) {
      if (inDiagram.has(`questions.${question.key}.options.${option.key}`))
        read(option.availableIf, inputs);
    }
    inputs.delete(question.index);
    reads.push([...inputs]);
    for (const input of inputs) readBy[input].push(question.index);
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
  const result: Mentions = {
    byQuestion: lists,
    byRule,
    reads,
    readBy,
    indirect: new Array<readonly string[] | undefined>(model.questions.length),
    unconditionalTables,
    conditionsInDiagram,
    restrictedOutside,
    inDiagram,
    keyLists,
  };
  return result;
}

/**
 * Per variable key: the questions it reads, through other variables too (variables in
 * the value order, so each one's inputs are known before it).
 */
function variableQuestions(model: CompiledModel): Map<string, number[]> {
  const result = new Map<string, number[]>();
  const questionCount = model.questions.length;
  for (const node of model.valueOrder) {
    const variable = model.variables[node - questionCount];
    if (node < questionCount || variable === undefined) continue;
    const inputs = new Set<number>();
    for (const name of variable.expr.names) {
      const q = model.questionIndex.get(name);
      if (q !== undefined) inputs.add(q);
      else for (const input of result.get(name) ?? []) inputs.add(input);
    }
    result.set(variable.key, [...inputs]);
  }
  return result;
}

/**
 * The rules that reach a question no rule names (built once per question and model):
 * first those that name a question whose `visible_if`, `required` or options'
 * `available_if` read it (a rule on `b` with `b` visible only when `a == 'y'` restricts
 * `a`), the nearest such questions first; else, when none does, the rules nearest to it
 * through those reads in either direction (its own option's `available_if` reading a
 * question a rule restricts). Empty only when no rule is connected to it.
 */
export function indirectRules(mentions: Mentions, question: number): readonly string[] {
  const known = mentions.indirect[question];
  if (known !== undefined) return known;
  const found =
    nearestRules(mentions, question, [mentions.readBy]) ??
    nearestRules(mentions, question, [mentions.readBy, mentions.reads], true) ??
    [];
  mentions.indirect[question] = found;
  return found;
}

const NO_RULES: readonly string[] = Object.freeze([]);

/**
 * Breadth first from `question` along `edges`: the rules naming the first level that has
 * any. When none (and `whole`: the edges both ways, so every question it reached is as
 * far from any rule), those questions are marked as reached by no rule: each search
 * spans a part of the model once.
 */
function nearestRules(
  { byQuestion, indirect }: Mentions,
  question: number,
  edges: ReadonlyArray<ReadonlyArray<readonly number[]>>,
  whole = false,
): string[] | undefined {
  const seen = new Set<number>([question]);
  let level = [question];
  while (level.length > 0) {
    const next: number[] = [];
    for (const q of level) {
      for (const edge of edges) {
        for (const other of edge[q]) {
          if (seen.has(other)) continue;
          seen.add(other);
          next.push(other);
        }
      }
    }
    const rules = new Set<string>();
    for (const q of next) for (const rule of byQuestion[q]) rules.add(rule);
    if (rules.size > 0) return [...rules];
    level = next;
  }
  if (whole) for (const q of seen) if (byQuestion[q].length === 0) indirect[q] = NO_RULES;
  return undefined;
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
 * answers' questions, else those naming its question. When no rule names its question,
 * the option's own key when its `available_if` is in the diagram (the local check could
 * not decide it, e.g. it reads unanswered questions), then the same choice among the
 * rules that reach the question (indirectRules: through another question's visibility,
 * say); when no rule reaches it nor the conflicting answers, a multi_choice's other
 * options whose `available_if` `min_selected` may need. Cheap and deterministic, not
 * minimal (the minimal statement is `conflicts_with`).
 */
export function explainRules(
  model: CompiledModel,
  question: number,
  conflictsWith: readonly string[],
  option?: number,
): string[] {
  const mentions = mentionsOf(model);
  const direct = mentions.byQuestion[question];
  const reaching = (q: number): readonly string[] =>
    mentions.byQuestion[q].length > 0 ? mentions.byQuestion[q] : indirectRules(mentions, q);
  const ownCondition =
    direct.length === 0 &&
    option !== undefined &&
    mentions.conditionsInDiagram[question][option] === 1
      ? [model.questions[question].options[option].key]
      : [];
  const own = reaching(question);
  let rules: readonly string[] = own;
  if (conflictsWith.length > 0) {
    const others = new Set<string>();
    for (const key of conflictsWith) {
      const q = model.questionIndex.get(key);
      if (q !== undefined) for (const rule of reaching(q)) others.add(rule);
    }
    const shared = own.filter((rule) => others.has(rule));
    // No rule reaches the question: the conflict lies with the answers (those that already
    // conflict exclude every option), so the rules that reach them.
    rules = shared.length > 0 ? shared : own.length > 0 ? own : [...others];
  }
  if (ownCondition.length + rules.length > 0 || option === undefined)
    return [...ownCondition, ...rules];
  return siblingConditions(model, mentions, question, option);
}

/**
 * A multi_choice option that `min_selected` needs with others: the other options whose
 * `available_if` is in the diagram (they may be what cannot be selected with it).
 */
function siblingConditions(
  model: CompiledModel,
  mentions: Mentions,
  question: number,
  option: number,
): string[] {
  const { type, minSelected, options } = model.questions[question];
  if (type !== 'multi_choice' || minSelected === undefined || minSelected < 2) return [];
  const flags = mentions.conditionsInDiagram[question];
  return options.filter((_, o) => o !== option && flags[o] === 1).map((other) => other.key);
}
