import { CEL_TYPE_OF_QUESTION, createEnvironments } from '../cel/environment.js';
import { type EngineLimits, resolveLimits } from '../limits.js';
import type { CompiledModel } from '../model.js';
import { type Problem, ProblemList } from '../problems.js';
import { countBomItems, validateBom } from '../validate/bom.js';
import { Validation } from '../validate/context.js';
import { validateGeneral, validateImports } from '../validate/general.js';
import { validateImages } from '../validate/images.js';
import { validatePricing } from '../validate/pricing.js';
import { validateQuestions } from '../validate/questions.js';
import { isRecord, type JsonRecord } from '../validate/reader.js';
import { validateRules } from '../validate/rules.js';
import { validateTranslation } from '../validate/translation.js';
import { validateTriggers } from '../validate/triggers.js';
import { validateVariables } from '../validate/variables.js';
import { expectations } from './expectations.js';
import { ExpressionCompiler } from './expressions.js';
import { orderValueGraph } from './graph.js';
import { compactModel, type ModelCore, type QuestionSetters } from './compact.js';
import { checkCost, shapeOfQuestion } from './cost-check.js';
import type { Shape } from '../cel/cost.js';
import type { Expression } from '../cel/expression.js';
import { compileConsistency, formFitsModel } from '../consistency/compile.js';
import type { ConsistencyForm } from '../consistency/form.js';
import { deserializeConsistency } from '../consistency/serialize.js';
import { optionPriceTables, priceBom } from './prices.js';

export type CompileResult = { ok: true; model: CompiledModel } | { ok: false; problems: Problem[] };

export interface CompileOptions {
  /**
   * A consistency form stored with the version (bytes from serializeConsistency, or
   * the form itself): reused instead of recompiling when it was built by this engine
   * version for this model.
   */
  consistency?: Uint8Array | ConsistencyForm;
}

const SECTIONS = new Set([
  'general',
  'imports',
  'questions',
  'variables',
  'rules',
  'triggers',
  'bom_items',
  'pricing',
  'translation',
  'images',
]);

/** Parts named in the message of a conflict (each part is also the path of a problem). */
const CONFLICT_NAMED = 20;

/**
 * Validates a model document (imports already merged) and compiles it: every
 * problem is reported (up to the cap) with its path, or the compiled model is
 * returned. Pure: no I/O, the same document always gives the same result.
 */
export function compileModel(
  document: unknown,
  limits?: Partial<EngineLimits>,
  options: CompileOptions = {},
): CompileResult {
  const problems = new ProblemList();
  const resolved = resolveLimits(limits);
  const v = new Validation(problems, resolved);
  if (!isRecord(document)) {
    problems.add('invalid_document', 'a model is an object with at least a general section');
    return { ok: false, problems: problems.items };
  }
  const extensions: Record<string, unknown> = {};
  for (const key of Object.keys(document)) {
    if (key.startsWith('x-')) extensions[key] = document[key];
    else if (!SECTIONS.has(key))
      problems.add('unknown_key', `unknown top-level member '${key}'`, key);
  }
  if (!withinCountLimits(v, document)) return { ok: false, problems: problems.items };

  const general = validateGeneral(v, document.general);
  const imports = validateImports(v, document.imports);
  const names = new Set<string>();
  const questions = validateQuestions(v, document.questions, names);
  const variables = validateVariables(v, document.variables, names);
  const questionIndex = new Map(questions.map((question) => [question.key, question.index]));
  const rules = validateRules(v, document.rules, questionIndex, questions);
  const triggers = validateTriggers(v, document.triggers, questionIndex, questions);
  const bomItems = validateBom(v, document.bom_items);
  const pricing = validatePricing(v, document.pricing);
  const images = validateImages(v, document.images);
  const translation = validateTranslation(v, document.translation);
  // Per question, the triggers that set it (and which of their targets): built here, put
  // into the compiled questions by compactModel.
  const setters = questions.map((): QuestionSetters => ({ triggers: [], targets: [] }));
  for (const trigger of triggers) {
    trigger.targets.forEach((target, t) => {
      setters[target.question].triggers.push(trigger.index);
      setters[target.question].targets.push(t);
    });
  }

  // Expressions: syntax and names, then the dependency order, then types.
  const environments = createEnvironments();
  const compiler = new ExpressionCompiler(environments.check, environments.evaluate, problems);
  for (const expression of v.expressions) compiler.parse(expression, names);
  const nodeOfName = new Map<string, number>(questionIndex);
  for (const variable of variables) nodeOfName.set(variable.key, questions.length + variable.index);
  const graph = orderValueGraph(questions, variables, triggers, nodeOfName, problems);
  for (const question of questions) {
    environments.check.registerVariable(question.key, CEL_TYPE_OF_QUESTION[question.type]);
  }
  // Shapes bound the size of every value an expression can read (static cost).
  const shapes = new Map<string, Shape>();
  for (const question of questions) shapes.set(question.key, shapeOfQuestion(question));
  const bound = (expression: Expression): Shape | undefined => {
    const limit = v.limits.expressionCost;
    return compiler.analyse(expression, (program) =>
      checkCost(expression, program, (name) => shapes.get(name), limit, problems),
    );
  };
  for (const node of graph.order) {
    const variable = variables[node - questions.length];
    if (node < questions.length || variable === undefined) continue;
    const type = graph.cyclic.has(node) ? undefined : compiler.typeCheck(variable.expr, 'any');
    registerInferred(environments.check, variable.key, type);
    const shape = bound(variable.expr);
    if (shape !== undefined) shapes.set(variable.key, shape);
  }
  const sections = { questions, rules, triggers, bomItems, pricing, images };
  for (const [expression, expectation] of expectations(sections)) {
    compiler.typeCheck(expression, expectation);
    bound(expression);
  }
  compiler.release();
  if (!problems.empty || general === undefined) return { ok: false, problems: problems.items };

  for (const name of names) environments.evaluate.registerVariable(name, 'dyn');
  const complete = new Map<Expression, Expression>();
  for (const draft of v.expressions) {
    const expression = compiler.complete(draft);
    if (expression !== undefined) complete.set(draft, expression);
  }
  if (!problems.empty) return { ok: false, problems: problems.items };

  const model: ModelCore = {
    general,
    imports,
    questions,
    questionIndex,
    variables,
    rules,
    triggers,
    bomItems: priceBom(bomItems, pricing),
    pricing,
    images,
    text: v.texts.build(translation, general.defaultLanguage),
    valueOrder: graph.order,
    ...optionPriceTables(questions, pricing),
    optionConditions: questions.filter((question) =>
      question.options.some((option) => option.availableIf),
    ),
    costBudget: v.limits.evaluationCost,
    explanationWork: v.limits.explanationWork,
    extensions,
  };
  const completeOf = (draft: Expression): Expression => {
    const expression = complete.get(draft);
    if (expression === undefined) throw new Error(`no complete form of ${draft.path}`);
    return expression;
  };
  const core = compactModel(model, { complete: completeOf, setters });
  const consistency = attachConsistency(core, resolved, options.consistency);
  if (consistency.conflict.length > 0) {
    const named = consistency.conflict.slice(0, CONFLICT_NAMED);
    const more = consistency.conflict.length - named.length;
    const message = `the model has no valid configuration: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''} conflict`;
    for (const source of consistency.conflict) problems.add('inconsistent_model', message, source);
    return { ok: false, problems: problems.items };
  }
  return { ok: true, model: { ...core, consistency } };
}

/** The stored form when it fits this model and engine version, else a fresh compile. */
function attachConsistency(
  core: ModelCore,
  limits: EngineLimits,
  stored: Uint8Array | ConsistencyForm | undefined,
): ConsistencyForm {
  const form = stored instanceof Uint8Array ? deserializeConsistency(stored) : stored;
  if (form !== undefined && formFitsModel(form, core)) return form;
  return compileConsistency(core, limits);
}

function registerInferred(
  check: import('@marcbachmann/cel-js').Environment,
  key: string,
  type: string | undefined,
): void {
  try {
    check.registerVariable(key, type ?? 'dyn');
  } catch {
    // A type cel-js cannot declare (rare, e.g. an optional): fall back to dyn.
    check.registerVariable(key, 'dyn');
  }
}

/** The size limits, decided before any section is read (docs/model-format.md "Limits"). */
function withinCountLimits(v: Validation, document: JsonRecord): boolean {
  const { limits } = v;
  let within = true;
  const check = (path: string, count: number, limit: number, name: string): void => {
    if (count <= limit) return;
    v.fail('limit_exceeded', `${path} has ${count} entries; the limit ${name} is ${limit}`, path);
    within = false;
  };
  if (Array.isArray(document.questions))
    check('questions', document.questions.length, limits.questions, 'questions');
  if (Array.isArray(document.rules)) check('rules', document.rules.length, limits.rules, 'rules');
  const rows = countTableRows(document.rules);
  if (rows > limits.tableRows) {
    const message = `the tables of rules have ${rows} rows in total; the limit tableRows is ${limits.tableRows}`;
    v.fail('limit_exceeded', message, 'rules');
    within = false;
  }
  const bom = countBomItems(document.bom_items, limits.nestingDepth);
  check('bom_items', bom.count, limits.bomItems, 'bomItems');
  if (bom.tooDeep) {
    v.fail(
      'limit_exceeded',
      `bom_items nest deeper than the limit nestingDepth (${limits.nestingDepth})`,
      'bom_items',
    );
    within = false;
  }
  return within;
}

/** Rows of every compatibility table (`rules[].allowed.rows`), counted before any is read. */
function countTableRows(rules: unknown): number {
  if (!Array.isArray(rules)) return 0;
  let rows = 0;
  for (const rule of rules) {
    const table = isRecord(rule) ? rule.allowed : undefined;
    if (isRecord(table) && Array.isArray(table.rows)) rows += table.rows.length;
  }
  return rows;
}
