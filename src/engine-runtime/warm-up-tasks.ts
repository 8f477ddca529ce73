import type { VersionRef, VersionTask } from './tasks/engine-tasks.js';

/** The evaluations of a warm-up: each view once, then the full view twice more (below). */
const VIEWS = ['full', 'compact', 'full', 'full'] as const;

/**
 * What makes a version just handed to its worker ready for its first buyer
 * (docs/adr/0197): what a configure page asks first (the model's description, then the
 * empty configuration), in both views. A first evaluation builds what the model keeps
 * for the next ones (the consistency form's prepared structures, derived indexes) and runs
 * cold code; the second and third of a large model still ran several times slower than
 * the next ones (the 268-question car: 130, 9, 4 ms, then 2–4 ms), hence four. Ordinary
 * tasks, each under the evaluation deadline like a buyer's; their answers are thrown away
 * (company 0: no asset URL is used).
 */
export function warmUpTasks(version: VersionRef): VersionTask[] {
  return [
    { kind: 'describe', version, companyId: 0, languageCode: null },
    ...VIEWS.map((view): VersionTask => ({
      kind: 'evaluate',
      version,
      companyId: 0,
      questions: '{}',
      languageCode: null,
      view,
    })),
  ];
}
