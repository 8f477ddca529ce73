import { createHash } from 'node:crypto';
import { conditionOr } from '../cel/expression.js';
import type { CompiledModel, CompiledQuestion, LanguageTexts } from '../model.js';
import { toAnswerValues } from '../question-values.js';
import type { LineGeneral, LineImage, LineOption, LineQuestion, LineTrigger } from '../types.js';
import { empty } from './empty.js';
import { unavailableValues } from './value-availability.js';
import type { EvaluationState } from './state.js';

export interface ResolvedLanguage {
  /** The language asked for (default_language when none): part of the fingerprint. */
  requested: string;
  texts: LanguageTexts;
  /** The model has no texts in the requested language: everything fell back. */
  unsupported: boolean;
}

/** The requested language's texts (exact, then case-insensitive), else the default language's. */
export function resolveLanguage(
  model: CompiledModel,
  languageCode: string | null | undefined,
): ResolvedLanguage {
  const requested = languageCode?.trim() || model.general.defaultLanguage;
  const { byLanguage, base } = model.text;
  let texts = byLanguage.get(requested);
  if (texts === undefined) {
    const lower = requested.toLowerCase();
    texts = [...byLanguage.values()].find(
      (candidate) => candidate.language.toLowerCase() === lower,
    );
  }
  return { requested, texts: texts ?? base, unsupported: texts === undefined };
}

export function lineGeneral(
  model: CompiledModel,
  modelId: number,
  texts: LanguageTexts,
): LineGeneral {
  const general = model.general;
  const description =
    general.descriptionSlot === undefined ? undefined : texts.texts[general.descriptionSlot];
  return {
    model_id: modelId,
    name: texts.texts[general.nameSlot],
    ...(general.code !== undefined && { code: general.code }),
    ...(description !== undefined && { description }),
    currency: general.currency,
    default_language: general.defaultLanguage,
    ...(general.validFrom !== undefined && { valid_from: general.validFrom }),
    ...(general.validUntil !== undefined && { valid_until: general.validUntil }),
  };
}

/**
 * Step 9's walk, shared by both views: one line per question, in model order, a pause
 * possible every STEP_ITEMS questions.
 */
export function eachQuestion<Line>(
  model: CompiledModel,
  lineOf: (question: CompiledQuestion) => Line,
): Line[] {
  const lines = new Array<Line>(model.questions.length);
  for (const question of model.questions) {
    lines[question.index] = lineOf(question);
  }
  return lines;
}

/** Step 9 for the full view. */
export function lineQuestions(
  model: CompiledModel,
  state: EvaluationState,
  texts: LanguageTexts,
): LineQuestion[] {
  const labels = texts.texts;
  const lines = eachQuestion(model, (question): LineQuestion => {
    const index = question.index;
    const value = state.values[index];
    const visible = state.visible[index];
    const hiddenAnswer = visible ? undefined : state.answers[index].raw;
    const label = labels[question.labelSlot];
    const required = state.required[index];
    const values = value === null ? empty<unknown>() : toAnswerValues(value);
    const source = state.sources[index];
    const discarded =
      hiddenAnswer === undefined || hiddenAnswer.length === 0 ? empty<unknown>() : hiddenAnswer;
    const suppressed = state.suppressed[index] ?? empty<string>();
    const unavailable = unavailableValues(model, state, question);
    // Literals rather than adding `options` afterwards: an added member would put
    // the line's members in a separate array (one more allocation per question).
    if (unavailable !== undefined) {
      return {
        key: question.key,
        type: question.type,
        label,
        visible,
        required,
        values,
        source,
        discarded,
        suppressed,
        unavailable_values: unavailable,
      };
    }
    return question.options.length > 0
      ? {
          key: question.key,
          type: question.type,
          label,
          visible,
          required,
          values,
          source,
          discarded,
          suppressed,
          options: lineOptions(model, question, value, state, labels),
        }
      : {
          key: question.key,
          type: question.type,
          label,
          visible,
          required,
          values,
          source,
          discarded,
          suppressed,
        };
  });
  return lines;
}

function lineOptions(
  model: CompiledModel,
  question: CompiledQuestion,
  value: unknown,
  state: EvaluationState,
  labels: readonly string[],
): LineOption[] {
  const reasons = state.unavailableBecause[question.index];
  const conflicts = state.conflictsWith[question.index];
  const unexplained = state.unexplained[question.index];
  const priceTexts = model.optionPriceTexts[question.index];
  const selectedList = Array.isArray(value) ? (value as string[]) : undefined;
  const options = question.options;
  const lines = new Array<LineOption>(options.length);
  for (let o = 0; o < options.length; o++) {
    const option = options[o];
    const because = reasons === undefined ? undefined : reasons[o];
    lines[o] = {
      key: option.key,
      label: labels[option.labelSlot],
      price: priceTexts[o],
      available: because === undefined,
      unavailable_because: (because as string[] | undefined) ?? empty<string>(),
      conflicts_with: (conflicts?.[o] as string[] | undefined) ?? empty<string>(),
      ...(unexplained?.[o] === 1 ? { explained: false as const } : {}),
      selected:
        selectedList === undefined ? value === option.key : selectedList.includes(option.key),
    };
  }
  return lines;
}

export function lineTriggers(
  model: CompiledModel,
  state: EvaluationState,
  texts: LanguageTexts,
): LineTrigger[] {
  return model.triggers.map((trigger) => {
    const line: LineTrigger = {
      key: trigger.key,
      fired: state.triggerFired[trigger.index],
      set: state.triggerApplied[trigger.index],
    };
    if (trigger.messageSlot !== undefined) line.message = texts.texts[trigger.messageSlot];
    return line;
  });
}

/** Step 8: included images ordered by layer (stable: list order within a layer). */
export function lineImages(
  model: CompiledModel,
  state: EvaluationState,
  texts: LanguageTexts,
  assetUrl: (path: string) => string,
  slots: number[],
): LineImage[] {
  const included = model.images.filter((image) => conditionOr(image.when, state.context, false));
  included.sort((a, b) => a.layer - b.layer);
  return included.map((image) => {
    if (image.altSlot !== undefined) slots.push(image.altSlot);
    return {
      key: image.key,
      url: imageUrl(image.src, assetUrl),
      layer: image.layer,
      alt: image.altSlot === undefined ? null : texts.texts[image.altSlot],
    };
  });
}

/** An image's URL: `https://…` passes through, a zip path goes through `assetUrl` (when given). */
export function imageUrl(src: string, assetUrl: ((path: string) => string) | undefined): string {
  return src.startsWith('https://') || !assetUrl ? src : assetUrl(src);
}

export function defaultAssetUrl(modelId: number): (path: string) => string {
  return (path) =>
    `/v1/models/${modelId}/assets/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Paths of the texts in this line that the requested language lacks: the static ones
 * (precomputed per language, shared and frozen), then those of included BOM items,
 * applied adjustments and included images, in that order.
 */
export function missingPaths(
  model: CompiledModel,
  language: ResolvedLanguage,
  dynamicSlots: readonly number[],
): string[] {
  if (language.unsupported) return [];
  const { missing, staticMissing } = language.texts;
  let paths: string[] | undefined;
  for (const slot of dynamicSlots)
    if (missing[slot] === 1) (paths ??= [...staticMissing]).push(model.text.paths[slot]);
  // Lines are read-only (see empty.ts): the shared list is handed out as it is.
  return paths ?? (staticMissing as string[]);
}

/** sha256 over model id, version, the answers with sorted keys, and the language. */
export function fingerprint(
  modelId: number,
  versionNumber: number,
  answers: unknown,
  language: string,
): string {
  const canonical = JSON.stringify([modelId, versionNumber, sortedAnswers(answers), language]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The answers rebuilt with keys inserted in sorted order, so that one native
 * JSON.stringify gives a canonical text (JavaScript lists integer-like keys first,
 * in numeric order, whatever the insertion order: still canonical). The usual
 * answer, `{values: [primitives]}`, is canonical as it is and is not copied.
 */
function sortedAnswers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedAnswers);
  if (value === null || typeof value !== 'object')
    return typeof value === 'bigint' ? value.toString() : value;
  if (isPlainAnswer(value)) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Already canonical (the usual request: keys in order, plain answers): not copied.
  if (isCanonicalRecord(record, keys)) return record;
  // A null prototype keeps a `__proto__` key an ordinary member.
  const sorted = Object.create(null) as Record<string, unknown>;
  for (const key of keys.sort()) sorted[key] = sortedAnswers(record[key]);
  return sorted;
}

/**
 * Keys already in sorted order and every member a plain answer: JSON.stringify gives
 * the same text as for the sorted copy (integer-like keys come first, in numeric
 * order, in both; that order is sorted only when it agrees with the string order).
 */
function isCanonicalRecord(record: Record<string, unknown>, keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (!(keys[i - 1] < keys[i])) return false;
  if (keys.includes('__proto__')) return false;
  for (const key of keys) if (!isPlainAnswer(record[key])) return false;
  return true;
}

/** `{values: [strings, finite numbers, booleans]}`. */
function isPlainAnswer(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const values = (value as { values?: unknown }).values;
  if (!Array.isArray(values) || !hasOneOwnKey(value)) return false;
  for (const item of values) {
    const type = typeof item;
    if (type !== 'string' && type !== 'boolean' && !(type === 'number' && Number.isFinite(item)))
      return false;
  }
  return true;
}

/** Exactly one own enumerable member (`Object.keys(value).length === 1`, without the array). */
function hasOneOwnKey(value: object): boolean {
  let count = 0;
  for (const key in value)
    if (Object.prototype.hasOwnProperty.call(value, key) && ++count > 1) return false;
  return count === 1;
}
