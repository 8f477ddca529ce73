import type { CompiledModel } from '../model.js';
import { firedTrigger, keptInCompact, type CompactCartLine } from './compact-line.js';
import type {
  CartLine,
  Evaluation,
  EvaluationRequest,
  LineDisplayedVariable,
  LineResolution,
} from '../types.js';
import { displayedVariable } from './displayed-variables.js';
import type { Problem } from '../problems.js';
import { resolveAnswers } from './resolution.js';
import { cheapestCompletion, effectiveAnswers } from './completion.js';
import { ENGINE_VERSION } from '../version.js';
import { readAnswers } from './answers.js';
import { computeValues } from './values.js';
import { computeAvailability, gateRules } from './availability.js';
import { markBlockedOptions, reportConflict } from './conflict-report.js';
import { exactAvailability, settleConsistency } from './consistency.js';
import { propagatedAvailability } from './propagated.js';
import { evaluateBom } from './bom.js';
import { compactQuestions } from './compact-questions.js';
import { checkAnswers } from './check-answers.js';
import { toJsonValue } from './json.js';
import {
  defaultAssetUrl,
  fingerprint,
  lineGeneral,
  lineImages,
  lineQuestions,
  lineTriggers,
  missingPaths,
  resolveLanguage,
} from './line-parts.js';
import { evaluatePricing } from './pricing.js';
import { addGuidance } from './guidance.js';
import { boundsFirst } from './bounds-first.js';
import { evaluateRules } from './rules.js';
import { sharesParts } from './shared-parts.js';
import { EvaluationState } from './state.js';

/** A request for the compact view, whose line is a CompactCartLine. */
type CompactRequest = EvaluationRequest & { view: 'compact' };
/** A request for the full view (the default). */
type FullRequest = EvaluationRequest & { view?: 'full' };
type AnyLine = CartLine | CompactCartLine;

/**
 * Evaluates one configuration against a compiled model (docs/model-format.md
 * "Evaluation order"). Pure apart from the clock: the same model version, answers
 * and language always give the same line (except `cache.evaluated_in_ms`). Never
 * throws for bad input: every problem is in `errors` or `warnings`. `request.view`
 * `compact` gives the compact line (everything but its shape is the same).
 */
export function evaluateConfiguration(
  model: CompiledModel,
  request: CompactRequest,
): Evaluation<CompactCartLine>;
export function evaluateConfiguration(model: CompiledModel, request: FullRequest): Evaluation;
export function evaluateConfiguration(
  model: CompiledModel,
  request: EvaluationRequest,
): Evaluation<AnyLine>;
export function evaluateConfiguration(
  model: CompiledModel,
  request: EvaluationRequest,
): Evaluation<AnyLine> {
  if (request.resolve === undefined && request.complete === undefined)
    return evaluationSteps(model, request);
  return guidedEvaluation(model, request);
}

/** What a guided request adds to its evaluation (docs/model-format.md "Guided configuration"). */
interface Guided {
  resolution?: LineResolution;
  /** Keys of the questions `complete: 'cheapest'` filled. */
  completed: readonly string[];
  problems: readonly Problem[];
}

/**
 * `resolve` and `complete`: the answers are first moved to the nearest valid configuration
 * and/or completed, then evaluated as any answers are; the line says what changed.
 */
function guidedEvaluation(model: CompiledModel, request: EvaluationRequest): Evaluation<AnyLine> {
  // The line's `evaluated_in_ms` counts the resolution and the completion too.
  const started = performance.now();
  let questions = request.questions;
  let resolution: LineResolution | undefined;
  const problems: Problem[] = [];
  if (request.resolve !== undefined) {
    const resolved = resolveAnswers(model, request, request.resolve);
    questions = resolved.answers;
    resolution = { changes: resolved.changes, exact: resolved.exact };
    problems.push(...resolved.problems);
  }
  let completed: string[] = [];
  if (request.complete === 'cheapest') {
    // Which answers take effect (visible ones) is known after evaluating them.
    const first = evaluationSteps(model, {
      ...request,
      questions,
      view: 'compact',
      priceBounds: false,
    });
    const effective = effectiveAnswers(first.line.questions);
    ({ answers: questions, completed } = cheapestCompletion(model, questions, effective));
  }
  const guided = { resolution, completed, problems };
  return evaluationSteps(model, { ...request, questions }, guided, started);
}

function evaluationSteps(
  model: CompiledModel,
  request: EvaluationRequest,
  guided?: Guided,
  started = performance.now(),
): Evaluation<AnyLine> {
  const state = new EvaluationState(model);
  try {
    for (const problem of guided?.problems ?? [])
      state.error(problem.code, problem.message, problem.path);
    const line = buildLine(model, request, state, guided);
    reportExhaustedBudget(state);
    line.cache.evaluated_in_ms = Math.round((performance.now() - started) * 1000) / 1000;
    return {
      valid: state.errors.length === 0,
      errors: state.errors,
      warnings: state.warnings,
      line,
    };
  } finally {
    state.release();
  }
}

function buildLine(
  model: CompiledModel,
  request: EvaluationRequest,
  state: EvaluationState,
  guided: Guided | undefined,
): AnyLine {
  const language = resolveLanguage(model, request.languageCode);
  const texts = language.texts;
  const compact = request.view === 'compact';
  // Lines in the first languages of a version share their fixed parts (shared-parts.ts).
  const shared = sharesParts(model, texts);

  checkValidity(model, request.now ?? new Date(), state);
  readAnswers(model, request.questions, state);
  computeValues(model, state);
  const settled = settleConsistency(model, state);
  gateRules(model, state);
  computeAvailability(model, state);
  const withPrices = request.priceBounds !== false;
  const walked =
    withPrices && state.conflict === undefined
      ? boundsFirst(model, settled.fixed, request.priceBoundsWork)
      : undefined;
  if (model.consistency.compiled) exactAvailability(model, state, settled, walked);
  else propagatedAvailability(model, state, settled.units, settled.work);
  markBlockedOptions(model, state);
  checkAnswers(model, state);
  // The conflict goes where the answer checks end, once the rules it names are known.
  const conflictAt = state.errors.length;
  const rules = evaluateRules(model, state, texts, shared);
  reportConflict(model, state, rules, conflictAt);
  const bom = evaluateBom(model.bomItems, state, model.pricing, texts, compact, shared);
  const dynamicSlots = bom.slots;
  const pricing = evaluatePricing(model, state, bom.total, texts, dynamicSlots);
  const images = lineImages(
    model,
    state,
    texts,
    request.assetUrl ?? defaultAssetUrl(request.modelId),
    dynamicSlots,
  );
  const missing = missingPaths(model, language, dynamicSlots);

  const variables: Record<string, unknown> = {};
  const displayed: LineDisplayedVariable[] = [];
  for (const variable of model.variables) {
    const value = toJsonValue(state.variables[variable.index]);
    variables[variable.key] = value;
    if (variable.display) displayed.push(displayedVariable(variable, value, texts));
  }
  const questions = compact ? compactQuestions(model, state) : lineQuestions(model, state, texts);
  const triggers = lineTriggers(model, state, texts);
  for (const key of guided?.completed ?? []) {
    const question = questions[model.questionIndex.get(key) as number];
    if (question.source === 'user') question.source = 'completion';
  }
  const guidance = addGuidance(
    model,
    state,
    settled.fixed,
    questions,
    compact,
    withPrices,
    request.priceBoundsWork,
    walked,
  );

  const line = {
    version_number: request.versionNumber,
    general: lineGeneral(model, request.modelId, texts),
    imports: model.imports.map((record) => ({ ...record })),
    questions,
    variables,
    displayed_variables: displayed,
    rules: compact ? rules.filter(keptInCompact) : rules,
    triggers: compact ? triggers.filter(firedTrigger) : triggers,
    bom_items: bom.lines,
    pricing,
    translation: {
      language: texts.language,
      fallback_used: language.unsupported || missing.length > 0,
      missing,
    },
    images,
    consistency: state.consistency,
    price_range: guidance.price_range,
    price_bounds: guidance.price_bounds,
    ...(guided?.resolution === undefined ? {} : { resolution: guided.resolution }),
    cache: {
      fingerprint: fingerprint(
        request.modelId,
        request.versionNumber,
        request.questions,
        language.requested,
      ),
      engine_version: ENGINE_VERSION,
      evaluated_in_ms: 0,
    },
  } satisfies Omit<CartLine, 'questions' | 'bom_items'> &
    Record<'questions' | 'bom_items', unknown>;
  // The questions and BOM items are both of the requested view (`compact` chose them);
  // every other member is checked against CartLine above.
  return line as AnyLine;
}

/** general.valid_from / valid_until: outside them the configuration is not accepted. */
function checkValidity(model: CompiledModel, now: Date, state: EvaluationState): void {
  const { validFromTime, validUntilTime, validFrom, validUntil } = model.general;
  const time = now.getTime();
  if (validFromTime !== undefined && time < validFromTime) {
    state.error('model_not_valid', `the model is valid from ${validFrom}`, 'general.valid_from');
  }
  if (validUntilTime !== undefined && time > validUntilTime) {
    state.error(
      'model_not_valid',
      `the model was valid until ${validUntil}`,
      'general.valid_until',
    );
  }
}

/** An expression the budget could not pay for made the line incomplete: an error per path. */
function reportExhaustedBudget(state: EvaluationState): void {
  const { budget } = state.context;
  for (const path of budget.exhausted) {
    state.error(
      'cost_limit',
      `not evaluated: the evaluation's cost budget evaluationCost (${budget.limit}) is spent`,
      path,
    );
  }
}
