import type { QuestionType } from './cel/environment.js';
import type { CompiledModel, CompiledQuestion, LanguageTexts } from './model.js';
import { toAnswerValues } from './question-values.js';
import { imageUrl, lineGeneral, resolveLanguage } from './evaluate/line-parts.js';
import type { LineGeneral } from './types.js';

export interface DescribedOption {
  key: string;
  label: string;
  description?: string;
  price: string;
  /** CEL; the option may be unavailable when it is false. */
  available_if?: string;
  image?: string;
}

export interface DescribedQuestion {
  key: string;
  type: QuestionType;
  label: string;
  description?: string;
  unit?: string;
  /** A literal `required`; false when required is an expression (see required_if). */
  required: boolean;
  required_if?: string;
  visible_if?: string;
  /** The literal default as answer values ([] when none). */
  default: unknown[];
  default_expr?: string;
  options?: DescribedOption[];
  min_selected?: number;
  max_selected?: number;
  min?: number;
  max?: number;
  step?: number;
  min_length?: number;
  max_length?: number;
}

/** A rule whose message is its own (not its key), translated. */
export interface DescribedRule {
  key: string;
  severity: 'error' | 'warning';
  message: string;
}

export interface ModelDescription {
  general: Omit<LineGeneral, 'model_id'>;
  language: string;
  questions: DescribedQuestion[];
  /**
   * The rules that have a message, in model order: what a compact line's reader needs to
   * say why an option is unavailable (the compact view keeps only failed and pending
   * rules). A rule without one is told by its key, as a line tells it; listing those too
   * would add ~30 bytes per clause rule (10,300 on a 2,513-feature model) for nothing.
   */
  rules: DescribedRule[];
}

export interface DescribeOptions {
  /** Maps an option image path inside the zip to a URL; without it the path is returned as is. */
  assetUrl?: (path: string) => string;
}

/**
 * The static description of a model for "GET /v1/companies/{id}/models": the
 * questions with translated labels, options, prices and constraints. No evaluation.
 */
export function describeModel(
  model: CompiledModel,
  languageCode?: string | null,
  options: DescribeOptions = {},
): ModelDescription {
  const { texts } = resolveLanguage(model, languageCode);
  const { model_id: _modelId, ...general } = lineGeneral(model, 0, texts);
  return {
    general,
    language: texts.language,
    questions: model.questions.map((question) => describeQuestion(model, question, texts, options)),
    rules: describeRules(model, texts),
  };
}

function describeRules(model: CompiledModel, texts: LanguageTexts): DescribedRule[] {
  const described: DescribedRule[] = [];
  for (const rule of model.rules) {
    const message = texts.texts[rule.messageSlot];
    if (message !== rule.key) described.push({ key: rule.key, severity: rule.severity, message });
  }
  return described;
}

function describeQuestion(
  model: CompiledModel,
  question: CompiledQuestion,
  texts: LanguageTexts,
  options: DescribeOptions,
): DescribedQuestion {
  const described: DescribedQuestion = {
    key: question.key,
    type: question.type,
    label: texts.texts[question.labelSlot],
    required: question.required === true,
    default: toAnswerValues(question.defaultValue),
  };
  if (question.descriptionSlot !== undefined)
    described.description = texts.texts[question.descriptionSlot];
  if (question.unit !== undefined) described.unit = question.unit;
  if (typeof question.required !== 'boolean') described.required_if = question.required.source;
  if (question.visibleIf !== undefined) described.visible_if = question.visibleIf.source;
  if (question.defaultExpr !== undefined) described.default_expr = question.defaultExpr.source;
  const limits = {
    min_selected: question.minSelected,
    max_selected: question.maxSelected,
    min: question.min,
    max: question.max,
    step: question.step,
    min_length: question.minLength,
    max_length: question.maxLength,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined) described[name as keyof typeof limits] = value;
  }
  if (question.options.length > 0) {
    described.options = question.options.map((option, o) => {
      const entry: DescribedOption = {
        key: option.key,
        label: texts.texts[option.labelSlot],
        price: model.optionPriceTexts[question.index][o],
      };
      if (option.descriptionSlot !== undefined)
        entry.description = texts.texts[option.descriptionSlot];
      if (option.availableIf !== undefined) entry.available_if = option.availableIf.source;
      if (option.image !== undefined) {
        entry.image = imageUrl(option.image, options.assetUrl);
      }
      return entry;
    });
  }
  return described;
}
