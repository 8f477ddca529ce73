import {
  evaluate,
  type CartLine,
  type CompiledModel,
  type EvaluationRequest,
  type LineView,
  compactLine,
} from '../../engine/work.js';
import type { AssetUrlSigner } from '../asset-url-signer.js';
import { carriedOver } from './carried-over.js';
import type { Guidance, LineResolution } from './guidance.js';
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

/**
 * An evaluated line as the worker sends it: its JSON as bytes, and what the main thread
 * decides with. Its problems go as JSON text too (`problems`): a line of a model with
 * thousands of unanswered required questions has as many errors (2,513 features:
 * ~275 kB), which as objects cost a structured clone here, another on the main thread and
 * a JSON.stringify there; the main thread parses them only when it reads them
 * (src/engine-runtime/evaluated-line.ts).
 */
export interface SentLine {
  readonly kind: 'evaluated';
  readonly valid: boolean;
  /** UTF-8 of `"errors":[…],"warnings":[…]`: the two members as an answer writes them. */
  readonly problems: Uint8Array;
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
): { value: SentLine; transfer: ArrayBuffer[] } {
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
  const { errors, warnings } = evaluation;
  const problems = new TextEncoder().encode(
    `"errors":${JSON.stringify(errors)},"warnings":${JSON.stringify(warnings)}`,
  );
  return {
    value: {
      kind: 'evaluated',
      valid: evaluation.valid,
      problems,
      total,
      currency,
      line,
      ...(snapshot ? { snapshot } : {}),
      ...(moved ? { answers: moved.answers, resolution: moved.resolution } : {}),
    },
    transfer: [...transferOf(line, snapshot), problems.buffer as ArrayBuffer],
  };
}

/** The request with the guidance members asked for. */
const withGuidance = (request: EvaluationRequest, guidance: Guidance | undefined) =>
  guidance === undefined ? request : { ...request, ...guidance };

const answersOf = (questions: unknown): Answers =>
  typeof questions === 'object' && questions !== null && !Array.isArray(questions)
    ? (questions as Answers)
    : {};
