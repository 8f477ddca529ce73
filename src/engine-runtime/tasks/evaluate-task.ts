import {
  evaluate,
  type CartLine,
  type CompiledModel,
  type Evaluation,
  type EvaluationRequest,
  type LineView,
  type Problem,
  compactLine,
} from '../../engine/work.js';
import type { AssetUrlSigner } from '../asset-url-signer.js';
import {
  answersAfter,
  chainedChanges,
  type AnswerChange,
  type Guidance,
  type LineResolution,
} from './guidance.js';
import { lineBytes, transferOf, type LineSnapshot } from './line-snapshot.js';

export interface EvaluateTask {
  readonly kind: 'evaluate';
  readonly version: {
    readonly key: string;
    readonly modelId: number;
    readonly versionNumber: number;
  };
  /** The company the line's asset URLs are scoped to. */
  readonly companyId: number;
  /** The answers as JSON text (parsed here: cheaper than a structured clone). */
  readonly questions: string;
  readonly languageCode: string | null;
  readonly view: LineView;
  /** Also the line to store (add to cart): both views (LineSnapshot). */
  readonly snapshot?: boolean;
  /** A preview's `resolve` and `complete` (docs/model-format.md "Guided configuration"). */
  readonly guidance?: Guidance;
  /**
   * Carry the answers over to this version (a line moved to another version): the
   * nearest valid configuration, answered with the answers it stored (`answers`).
   */
  readonly move?: boolean;
}

/** An evaluated line: its JSON as bytes, and what the main thread decides with. */
export interface EvaluatedLine {
  readonly kind: 'evaluated';
  readonly valid: boolean;
  readonly errors: Problem[];
  readonly warnings: Problem[];
  readonly total: string;
  readonly currency: string;
  /**
   * UTF-8 JSON of the line (docs/model-format.md "The cart line"), in the asked view; with
   * a snapshot, that view's stored form (without `version_number`, line-snapshot.ts).
   */
  readonly line: Uint8Array;
  /** When the task asked for it. */
  readonly snapshot?: LineSnapshot;
  /** A move's: the answers the line was carried over to (what a stored line keeps). */
  readonly answers?: Record<string, unknown>;
  /** A move's: what carrying the answers over changed. */
  readonly resolution?: LineResolution;
}

type Answers = Record<string, unknown>;

/** An evaluate task in the worker that holds its version compiled. */
export function evaluateTask(
  model: CompiledModel,
  task: EvaluateTask,
  urls: AssetUrlSigner,
): { value: EvaluatedLine; transfer: ArrayBuffer[] } {
  const { modelId, versionNumber } = task.version;
  const questions = JSON.parse(task.questions) as unknown;
  const request: EvaluationRequest = {
    modelId,
    versionNumber,
    questions,
    languageCode: task.languageCode,
    // Company-scoped, so that whoever may use the line (an intent token too) may load them.
    assetUrl: (path) => urls.url({ companyId: task.companyId, modelId, versionNumber, path }),
    // A snapshot keeps both views: the compact one is cut from the full line; a move
    // reads the full line's questions.
    view: task.snapshot || task.move ? 'full' : task.view,
  };
  const moved = task.move ? carriedOver(model, request, answersOf(questions)) : undefined;
  const evaluation = moved?.evaluation ?? evaluate(model, withGuidance(request, task.guidance));
  const { total, currency } = evaluation.line.pricing;
  const evaluated =
    task.move && !task.snapshot && task.view === 'compact'
      ? (compactLine(evaluation.line as CartLine) as unknown as CartLine)
      : (evaluation.line as CartLine);
  const { line, snapshot } = lineBytes(evaluated, task, versionNumber);
  return {
    value: {
      kind: 'evaluated',
      valid: evaluation.valid,
      errors: evaluation.errors,
      warnings: evaluation.warnings,
      total,
      currency,
      line,
      ...(snapshot ? { snapshot } : {}),
      ...(moved ? { answers: moved.answers, resolution: moved.resolution } : {}),
    },
    transfer: transferOf(line, snapshot),
  };
}

/** The request with the guidance members asked for. */
const withGuidance = (request: EvaluationRequest, guidance: Guidance | undefined) =>
  guidance === undefined ? request : { ...request, ...guidance };

const answersOf = (questions: unknown): Answers =>
  typeof questions === 'object' && questions !== null && !Array.isArray(questions)
    ? (questions as Answers)
    : {};

const resolutionOf = (line: CartLine): LineResolution =>
  line.resolution ?? { changes: [], exact: true };

/**
 * A line's answers carried over to this version (docs/model-format.md "Guided
 * configuration"): the nearest configuration that can be completed (`resolve: true`).
 * Completable is not yet valid when the version requires a question the line leaves
 * open: those required questions are then answered from a cheapest completion, so that
 * a line is not left invalid when a valid neighbour exists (docs/adr/0145). The line
 * answered lists every change, the filled questions too.
 */
function carriedOver(
  model: CompiledModel,
  request: EvaluationRequest,
  answers: Answers,
): { evaluation: Evaluation; answers: Answers; resolution: LineResolution } {
  const resolved = evaluate(model, withGuidance(request, { resolve: true })) as Evaluation;
  const resolution = resolutionOf(resolved.line);
  const carried = answersAfter(answers, resolution.changes);
  const first = { evaluation: resolved, answers: carried, resolution };
  if (resolved.valid) return first;
  // Only the questions the version requires and the carried answers leave open: a soft
  // value (default, trigger) stays soft, an optional question stays unanswered.
  const open = new Set(
    resolved.line.questions
      .filter((q) => q.visible && q.required && q.values.length === 0)
      .map((q) => q.key),
  );
  if (open.size === 0) return first;
  const completed = evaluate(model, {
    ...withGuidance(request, { complete: 'cheapest' }),
    questions: carried,
  }) as Evaluation;
  const fills: AnswerChange[] = completed.line.questions
    .filter((q) => open.has(q.key) && q.values.length > 0)
    .map((q) => ({ question: q.key, from: [], to: q.values }));
  if (fills.length === 0) return first;
  const filled = answersAfter(carried, fills);
  const final = evaluate(model, {
    ...withGuidance(request, { resolve: true }),
    questions: filled,
  }) as Evaluation;
  if (!final.valid) return first;
  const own = resolutionOf(final.line).changes;
  const changes = chainedChanges(chainedChanges(resolution.changes, fills), own);
  const carriedResolution = { changes, exact: resolution.exact && resolutionOf(final.line).exact };
  final.line.resolution = carriedResolution;
  return { evaluation: final, answers: answersAfter(filled, own), resolution: carriedResolution };
}
