import { createHash } from 'node:crypto';
import { conditionOr } from '../cel/expression.js';
import type { CompiledModel, CompiledQuestion, LanguageTexts } from '../model.js';
import { toAnswerValues } from '../question-values.js';
import type { LineGeneral, LineImage, LineOption, LineQuestion, LineTrigger } from '../types.js';
import { empty } from './empty.js';
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

export function lineQuestions(
  model: CompiledModel,
  state: EvaluationState,
  texts: LanguageTexts,
): LineQuestion[] {
  const labels = texts.texts;
  const lines = new Array<LineQuestion>(model.questions.length);
  for (const question of model.questions) {
    const index = question.index;
    const value = state.values[index];
    const visible = state.visible[index];
    const hiddenAnswer = visible ? undefined : state.answers[index].raw;
    const line: LineQuestion = {
      key: question.key,
      type: question.type,
      label: labels[question.labelSlot],
      visible,
      required: state.required[index],
      values: value === null ? empty<unknown>() : toAnswerValues(value),
      source: state.sources[index],
      discarded:
        hiddenAnswer === undefined || hiddenAnswer.length === 0 ? empty<unknown>() : hiddenAnswer,
    };
    if (question.options.length > 0)
      line.options = lineOptions(model, question, value, state, labels);
    lines[index] = line;
  }
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
      unavailable_because: because ?? empty<string>(),
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
      url: image.src.startsWith('https://') ? image.src : assetUrl(image.src),
      layer: image.layer,
      alt: image.altSlot === undefined ? null : texts.texts[image.altSlot],
    };
  });
}

export function defaultAssetUrl(modelId: number): (path: string) => string {
  return (path) =>
    `/v1/models/${modelId}/assets/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Paths of the texts in this line that the requested language lacks. */
export function missingPaths(
  model: CompiledModel,
  language: ResolvedLanguage,
  dynamicSlots: readonly number[],
): string[] {
  if (language.unsupported) return [];
  const { missing } = language.texts;
  const paths: string[] = [];
  for (const slot of model.text.staticSlots)
    if (missing[slot] === 1) paths.push(model.text.paths[slot]);
  for (const slot of dynamicSlots) if (missing[slot] === 1) paths.push(model.text.paths[slot]);
  return paths;
}

/** sha256 over model id, version, the answers with sorted keys, and the language. */
export function fingerprint(
  modelId: number,
  versionNumber: number,
  answers: unknown,
  language: string,
): string {
  const canonical = canonicalJson([modelId, versionNumber, answers, language]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** JSON with object keys sorted (string concatenation: V8 ropes make this cheap). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonicalJson(value[i]);
    return out + ']';
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      out += (i > 0 ? ',' : '') + jsonString(keys[i]) + ':' + canonicalJson(record[keys[i]]);
    }
    return out + '}';
  }
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}

/** Keys and option keys need no escaping; anything else goes through JSON.stringify. */
const PLAIN_TEXT = /^[A-Za-z0-9_. -]*$/;

function jsonString(text: string): string {
  return PLAIN_TEXT.test(text) ? `"${text}"` : JSON.stringify(text);
}
