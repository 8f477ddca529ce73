import type { Environment } from '@marcbachmann/cel-js';
import type { Shape } from '../cel/cost.js';
import { CEL_TYPE_OF_QUESTION, createEnvironments } from '../cel/environment.js';
import type { Expression } from '../cel/expression.js';
import { type EngineLimits, resolveLimits } from '../limits.js';
import type { ModelCore } from '../model-core.js';
import { ProblemList } from '../problems.js';
import type { Result } from '../result.js';
import { countBomItems, validateBom } from './bom.js';
import { Validation } from './context.js';
import { checkCost, shapeOfQuestion } from './cost-check.js';
import { expectations } from './expectations.js';
import { ExpressionCompiler } from './expressions.js';
import { validateGeneral, validateImports } from './general.js';
import { orderValueGraph } from './graph.js';
import { validateImages } from './images.js';
import { validatePricing } from './pricing.js';
import { validateQuestions } from './questions.js';
import { keyedProblems } from './keyed-paths.js';
import { isRecord, type JsonRecord } from './reader.js';
import { validateRules } from './rules.js';
import { validateTranslation } from './translation.js';
import { validateTriggers } from './triggers.js';
import { validateVariables } from './variables.js';

/** The triggers that set a question, in list order, and the index of its target in each. */
export interface QuestionSetters {
  readonly triggers: number[];
  readonly targets: number[];
}

/**
 * The validate stage's artifact: every section read and every expression parsed,
 * type-checked, cost-bounded and built complete. Nothing in it can still be refused as
 * invalid; the compile stage (compile/compile-model.ts) precomputes, compacts and adds
 * the consistency form, and fails only on an inconsistent model or a budget.
 */
export interface ValidatedModel extends Pick<
  ModelCore,
  | 'general'
  | 'imports'
  | 'questions'
  | 'questionIndex'
  | 'variables'
  | 'rules'
  | 'triggers'
  | 'bomItems'
  | 'pricing'
  | 'images'
  | 'text'
  | 'valueOrder'
  | 'extensions'
> {
  /** The limits the document was validated against; the compile's budgets come from them. */
  readonly limits: EngineLimits;
  /** The complete form of every draft expression the sections hold (`bomItems` as written: prices not yet rounded). */
  readonly complete: ReadonlyMap<Expression, Expression>;
  /** Per question index: the triggers that set it. */
  readonly setters: readonly QuestionSetters[];
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

/**
 * Validates a model document (imports already merged): every section and every
 * expression. Every problem is reported (up to the cap) with its path. Pure: no I/O,
 * the same document always gives the same result.
 */
export function validateModel(
  document: unknown,
  limits?: Partial<EngineLimits>,
): Result<ValidatedModel> {
  const result = validateDocument(document, limits);
  return result.ok ? result : { ok: false, problems: keyedProblems(document, result.problems) };
}

function validateDocument(
  document: unknown,
  limits?: Partial<EngineLimits>,
): Result<ValidatedModel> {
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
      checkCost(
        expression,
        program,
        (name) => shapes.get(name),
        limit,
        problems,
        compiler.programs,
      ),
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

  return {
    ok: true,
    value: {
      limits: resolved,
      general,
      imports,
      questions,
      questionIndex,
      variables,
      rules,
      triggers,
      bomItems,
      pricing,
      images,
      text: v.texts.build(translation, general.defaultLanguage),
      valueOrder: graph.order,
      extensions,
      complete,
      setters,
    },
  };
}

function registerInferred(check: Environment, key: string, type: string | undefined): void {
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
