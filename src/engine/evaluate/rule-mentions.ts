import type { CompiledModel } from '../model.js';

/** Per model: per question, the rules (keys) whose table or expressions name it. */
const mentionsByModel = new WeakMap<CompiledModel, ReadonlyArray<readonly string[]>>();

function mentions(model: CompiledModel): ReadonlyArray<readonly string[]> {
  const known = mentionsByModel.get(model);
  if (known !== undefined) return known;
  const lists: string[][] = model.questions.map(() => []);
  const inDiagram = new Set(model.consistency.partSources);
  for (const rule of model.rules) {
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
  }
  mentionsByModel.set(model, lists);
  return lists;
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
  const lists = mentions(model);
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
