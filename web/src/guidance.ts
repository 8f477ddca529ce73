// Guided configuration in the configurator (docs/api.md "Guided configuration"): the
// nearest valid configuration for an unavailable pick, a line moved to its model's newer
// version, a cheapest completion. Their texts are in guidance-text.ts.
import type { Answers, CompactLine, LineOption, LineQuestion, Schemas, Value } from './api.js';

export type AnswerChange = Schemas['AnswerChangeDto'];

/** The answers after the resolution's changes (a change to nothing drops the answer). */
export function answersAfter(answers: Answers, changes: readonly AnswerChange[]): Answers {
  const after: Answers = { ...answers };
  for (const change of changes) {
    if (change.to.length === 0) delete after[change.question];
    else after[change.question] = change.to as Value[];
  }
  return after;
}

/** The questions a cheapest completion filled, as answers. */
export function completedAnswers(answers: Answers, line: CompactLine): Answers {
  const after: Answers = { ...answers };
  for (const q of line.questions)
    if (q.source === 'completion' && q.values.length > 0) after[q.key] = q.values as Value[];
  return after;
}

/** An unavailable option the buyer picked, and the nearest valid configuration that has it. */
export interface PickOffer {
  question: LineQuestion;
  option: LineOption;
  /** The other answers it changes (undefined while the preview is on its way). */
  changes?: AnswerChange[];
  /** The answers with the pick and those changes. */
  answers?: Answers;
}

/** A stored line whose model moved on: what opening it on the newer version changes. */
export interface VersionMove {
  from: number;
  to: number;
  changes: AnswerChange[];
}

/**
 * A preview with guidance members, with the configurator's current answers (or `answers`),
 * in the compact view: guidance reads only its resolution and its questions' values.
 */
export type GuidedPreview = (
  guided: Pick<Schemas['PreviewConfigurationDto'], 'resolve' | 'complete'>,
  answers?: Answers,
) => Promise<CompactLine>;

/** The offer for an unavailable option: the nearest valid configuration that picks it. */
export async function pickOffer(
  preview: GuidedPreview,
  answers: Answers,
  question: LineQuestion,
  option: LineOption,
): Promise<PickOffer> {
  const resolved = await preview({ resolve: { question: question.key, value: option.key } });
  const all = resolved.resolution?.changes ?? [];
  const after = answersAfter(answers, all);
  const current = (after[question.key] ?? question.values).map(String);
  after[question.key] =
    question.type === 'multi_choice' ? [...new Set([...current, option.key])] : [option.key];
  const changes = all.filter((change) => change.question !== question.key);
  return { question, option, changes, answers: after };
}

/**
 * A stored line opened on its model's newer version: its answers carried over as saving
 * with `version_number: "latest"` carries them (docs/adr/0145): the nearest valid
 * configuration, then the questions the version requires and it leaves open answered from
 * a cheapest completion.
 */
export async function carriedOver(
  preview: GuidedPreview,
  answers: Answers,
  from: number,
  to: number,
): Promise<{ answers: Answers; moved: VersionMove }> {
  const carried = await preview({ resolve: true });
  const resolved = carried.resolution?.changes ?? [];
  let after = answersAfter(answers, resolved);
  const open = carried.questions.filter((q) => q.visible && q.required && q.values.length === 0);
  const filled = new Map<string, Value[]>();
  if (open.length > 0) {
    const cheapest = await preview({ complete: 'cheapest' }, after);
    for (const q of cheapest.questions)
      if (open.some((o) => o.key === q.key) && q.values.length > 0)
        filled.set(q.key, q.values as Value[]);
    after = { ...after, ...Object.fromEntries(filled) };
  }
  const changes = resolved.filter((change) => !filled.has(change.question));
  for (const [question, to] of filled) {
    const before = resolved.find((change) => change.question === question)?.from ?? [];
    changes.push({ question, from: before, to });
  }
  return { answers: after, moved: { from, to, changes } };
}

/** The answers with the unanswered questions filled by a cheapest valid completion. */
export async function cheapestAnswers(preview: GuidedPreview, answers: Answers): Promise<Answers> {
  return completedAnswers(answers, await preview({ complete: 'cheapest' }));
}
