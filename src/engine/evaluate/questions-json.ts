import type { CompiledModel, LanguageTexts } from '../model.js';
import type { LineOption, LineQuestion } from '../types.js';

/**
 * The JSON text of a full line's questions, written from prepared text. Most of that
 * text is member names and the model's own keys, labels and prices, the same in every
 * evaluation of a version in a language: each question's and option's leading members
 * are written once per model and language (`{"key":…,"type":…,"label":…,"visible":`),
 * and only the members the answers decide are written per evaluation. At 1,000
 * questions (3,750 options) the text and its bytes take 1.1–1.2 ms where `JSON.stringify`
 * and `Buffer.from` take 1.9 ms on Node 24 and 3.0 ms on Node 20 (docs/adr/
 * 0041-prepared-line-text.md). The text equals `JSON.stringify`'s, member
 * order included (test/engine/evaluate/line-json.test.ts).
 */

/** The prepared text of one question: its leading members, and each option's. */
interface QuestionText {
  /** The members it was written from (compared with the line's, by identity first). */
  readonly key: string;
  readonly type: string;
  readonly label: string | undefined;
  /** `{"key":…,"type":…,"label":…,"visible":` */
  readonly head: string;
  readonly options: readonly OptionText[];
}

interface OptionText {
  readonly key: string;
  readonly label: string | undefined;
  readonly price: string | undefined;
  /** `{"key":…,"label":…,"price":…,"available":` */
  readonly head: string;
  /** The whole option when available, without reasons, not selected (most options). */
  readonly plain: string;
}

/** What a question list was written from (lines are read-only: see empty.ts). */
interface Origin {
  readonly model: CompiledModel;
  readonly texts: LanguageTexts;
}

/**
 * Every line's question list (either view: eachQuestion notes them), with what a full
 * one in a prepared language is written from; null for the others, which are stringified.
 */
const origins = new WeakMap<readonly unknown[], Origin | null>();

/** Prepared text per language (a model's LanguageTexts die with it), built question by question. */
const prepared = new WeakMap<LanguageTexts, Array<QuestionText | undefined>>();

/**
 * Records that `questions` is a line's question list; with `origin`, the full view of
 * `origin.model`'s questions in `origin.texts`, written from prepared text.
 */
export function noteLineQuestions(questions: readonly unknown[], origin: Origin | null): void {
  origins.set(questions, origin);
}

/** Whether `list` is a line's question list, in either view. */
export function isLineQuestionList(list: readonly unknown[]): boolean {
  return origins.has(list);
}

/**
 * The JSON text of `questions[start..end)`, comma-separated, without brackets: what
 * `JSON.stringify(questions.slice(start, end)).slice(1, -1)` gives. Undefined when the
 * list is not one `lineQuestions` made (the caller stringifies it). A question whose
 * key, type or label was changed since is written by `JSON.stringify`.
 */
export function questionsJson(
  questions: readonly unknown[],
  start: number,
  end: number,
): string | undefined {
  const origin = origins.get(questions);
  if (origin === undefined || origin === null) return undefined;
  let texts = prepared.get(origin.texts);
  if (texts === undefined) {
    texts = new Array<QuestionText | undefined>(origin.model.questions.length);
    prepared.set(origin.texts, texts);
  }
  const lines = questions as readonly LineQuestion[];
  let json = '';
  for (let i = start; i < end; i++) {
    if (i > start) json += ',';
    const question = lines[i];
    const text = (texts[i] ??= prepareQuestion(origin, i));
    json += sameHead(question, text) ? questionJson(question, text) : JSON.stringify(question);
  }
  return json;
}

function sameHead(question: LineQuestion, text: QuestionText): boolean {
  return question.key === text.key && question.type === text.type && question.label === text.label;
}

/**
 * `visible` and `required` by `(visible ? 2 : 0) + (required ? 1 : 0)`: fewer, longer
 * pieces, since turning the text into bytes costs per piece as much as per character.
 */
const VISIBLE_REQUIRED = [
  'false,"required":false,"values":',
  'false,"required":true,"values":',
  'true,"required":false,"values":',
  'true,"required":true,"values":',
];

/** `,"source":…` by source (a handful of words). */
const sourceTexts = new Map<string, string>();

function questionJson(question: LineQuestion, text: QuestionText): string {
  const { source, discarded, suppressed } = question;
  let sourceText = sourceTexts.get(source);
  if (sourceText === undefined) {
    sourceText = `,"source":${JSON.stringify(source)}`;
    sourceTexts.set(source, sourceText);
  }
  let json =
    text.head +
    VISIBLE_REQUIRED[(question.visible ? 2 : 0) + (question.required ? 1 : 0)] +
    list(question.values) +
    sourceText +
    (discarded.length === 0 && suppressed.length === 0
      ? ',"discarded":[],"suppressed":[]'
      : `,"discarded":${list(discarded)},"suppressed":${list(suppressed)}`);
  // The two literals of lineQuestions: `unavailable_values`, or `options` when there are any.
  if (question.unavailable_values !== undefined)
    return `${json},"unavailable_values":${list(question.unavailable_values)}}`;
  const options = question.options;
  if (options === undefined) return `${json}}`;
  json += ',"options":[';
  for (let o = 0; o < options.length; o++) {
    const option = options[o];
    const optionText = text.options[o];
    if (o > 0) json += ',';
    json +=
      optionText !== undefined && sameOptionHead(option, optionText)
        ? optionJson(option, optionText)
        : JSON.stringify(option);
  }
  return `${json}]}`;
}

function sameOptionHead(option: LineOption, text: OptionText): boolean {
  return option.key === text.key && option.label === text.label && option.price === text.price;
}

function optionJson(option: LineOption, text: OptionText): string {
  const plain =
    option.available &&
    !option.selected &&
    option.unavailable_because.length === 0 &&
    option.conflicts_with.length === 0;
  if (plain) return text.plain;
  return (
    text.head +
    (option.available ? 'true,"unavailable_because":' : 'false,"unavailable_because":') +
    list(option.unavailable_because) +
    ',"conflicts_with":' +
    list(option.conflicts_with) +
    (option.explained === false ? ',"explained":false' : '') +
    (option.selected ? ',"selected":true}' : ',"selected":false}')
  );
}

/** Most lists of a line are empty (the shared frozen one). */
function list(values: readonly unknown[]): string {
  return values.length === 0 ? '[]' : JSON.stringify(values);
}

/**
 * The leading members as `JSON.stringify` writes them (a member that is undefined is
 * left out), up to the first one the answers decide.
 */
function prepareQuestion({ model, texts }: Origin, index: number): QuestionText {
  const question = model.questions[index];
  const labels = texts.texts;
  const label = labels[question.labelSlot];
  const prices = model.optionPriceTexts[index];
  return {
    key: question.key,
    type: question.type,
    label,
    head: `${JSON.stringify({ key: question.key, type: question.type, label }).slice(0, -1)},"visible":`,
    options: question.options.map((option, o) => {
      const optionLabel = labels[option.labelSlot];
      const price = prices[o];
      // One flat string, and the head a slice of it (no copy).
      const plain = JSON.stringify({
        key: option.key,
        label: optionLabel,
        price,
        available: true,
        unavailable_because: [],
        conflicts_with: [],
        selected: false,
      });
      const head = plain.slice(0, plain.lastIndexOf('"available":') + '"available":'.length);
      return { key: option.key, label: optionLabel, price, head, plain };
    }),
  };
}
