import { derived } from '../derived.js';
import { type BudgetMark, CostBudget } from '../cel/budget.js';
import { EvaluationContext } from '../cel/expression.js';
import type { CelValue, CompiledModel } from '../model.js';
import type { Problem } from '../problems.js';
import type { LineConsistency, RuleStatus, ValueSource } from '../types.js';

/**
 * One reusable expression context per model: a large model's context is thousands of
 * entries, and rebuilding it per evaluation is pure garbage. Safe because evaluation
 * is synchronous (one at a time per context, guarded by `inUse`) and the value phase
 * sets every key before any expression can read it (each expression reads only names
 * that precede it in the topological order). Kept on the model (derived.ts).
 */
interface PooledContext {
  readonly context: EvaluationContext;
  inUse: boolean;
}

const POOLED_CONTEXT = Symbol('pooled context');

function newContext(model: CompiledModel): EvaluationContext {
  const context = new EvaluationContext();
  for (const question of model.questions) context.set(question.key, null);
  for (const variable of model.variables) context.set(variable.key, null);
  return context;
}

/** The model's pooled context when it is free, else a new one (`pooled`: which it is). */
function acquireContext(model: CompiledModel): {
  context: EvaluationContext;
  pooled?: PooledContext;
} {
  const pool = derived(model, POOLED_CONTEXT, (): PooledContext => ({
    context: newContext(model),
    inUse: false,
  }));
  if (pool.inUse) return { context: newContext(model) };
  pool.inUse = true;
  return { context: pool.context, pooled: pool };
}

/** One question's answer as parsed from the request. */
export interface UserAnswer {
  /** The CEL value, or null when unanswered or invalid. */
  value: CelValue | null;
  /** What the request sent (reported as `discarded` when the question is hidden). */
  raw: unknown[];
  /** The answer was given but malformed (its problems are reported already). */
  invalid: boolean;
}

/** Mutable working state of one evaluation; never shared between evaluations. */
export class EvaluationState {
  readonly context: EvaluationContext;
  readonly errors: Problem[] = [];
  readonly warnings: Problem[] = [];
  readonly answers: UserAnswer[];
  readonly values: Array<CelValue | null>;
  readonly sources: ValueSource[];
  readonly visible: boolean[];
  readonly required: boolean[];
  readonly variables: Array<CelValue | null>;
  readonly triggerFired: boolean[];
  /** Per trigger, per target: the value it would set (undefined: not fired or unusable). */
  readonly triggerValues: Array<Array<CelValue | null | undefined>>;
  /** Per trigger: the question keys → values that took effect. */
  readonly triggerApplied: Array<Record<string, unknown>>;
  /** Per rule: its `when` outcome, computed once (tables need it before validation). */
  readonly ruleGate: Array<'applies' | 'skipped' | 'pending'>;
  /** Per rule with a table: whether some row matches the answered columns. */
  readonly tableMatched: boolean[];
  /** Per question, per option: availability and the keys that make it unavailable. */
  readonly unavailableBecause: Array<Array<readonly string[] | undefined> | undefined>;
  /**
   * When the user's answers conflict: the local reasons (tables, available_if) the
   * answer checks use, so a conflict is reported once (`conflict`), not again as
   * `option_unavailable` for every answer the diagram finds unsupported.
   */
  answerReasons: Array<Array<readonly string[] | undefined> | undefined> | undefined;
  /** Per question, per option: the user's answers that exclude it (consistency). */
  readonly conflictsWith: Array<Array<readonly string[] | undefined> | undefined>;
  /** Per question, per option: 1 when the explanation budget ran out before it (`explained: false`). */
  readonly unexplained: Array<Uint8Array | undefined>;
  /**
   * Per value of the consistency layers (flat, `ConsistencyForm.valueBase`): 1 when it
   * has a valid completion with the user's other answers (boolean/integer values read it).
   */
  valueSupport: Uint8Array | undefined;
  /** Per question: soft values left out (trigger keys, `default`). */
  readonly suppressed: Array<string[] | undefined>;
  /** Per question: its triggers' / its default's value is left out (soft values). */
  readonly suppressTriggers: Uint8Array;
  readonly suppressDefault: Uint8Array;
  consistency: LineConsistency = { exact: true, configurations: '0' };
  /** Question keys of a minimal conflicting set of the user's answers (reported after the checks). */
  conflict: string[] | undefined;
  /** Rules the conflicting answers' own local reasons name (conflict-report.ts). */
  readonly conflictRules: string[] = [];
  /** Where the value phase started (see startValuePhase). */
  private valuePhase: { warnings: number; budget: BudgetMark } | undefined;
  /** The model's pooled context, when this evaluation holds it (see acquireContext). */
  private readonly pooled: PooledContext | undefined;

  constructor(readonly model: CompiledModel) {
    const questionCount = model.questions.length;
    const { context, pooled } = acquireContext(model);
    this.context = context;
    this.pooled = pooled;
    this.context.budget = new CostBudget(model.costBudget);
    this.answers = new Array<UserAnswer>(questionCount);
    this.values = new Array<CelValue | null>(questionCount).fill(null);
    this.sources = new Array<ValueSource>(questionCount).fill('none');
    this.visible = new Array<boolean>(questionCount).fill(true);
    this.required = new Array<boolean>(questionCount).fill(false);
    this.variables = new Array<CelValue | null>(model.variables.length).fill(null);
    this.triggerFired = new Array<boolean>(model.triggers.length).fill(false);
    this.triggerValues = model.triggers.map(() => []);
    this.triggerApplied = model.triggers.map(() => ({}));
    this.ruleGate = new Array<'applies' | 'skipped' | 'pending'>(model.rules.length).fill(
      'applies',
    );
    this.tableMatched = new Array<boolean>(model.rules.length).fill(true);
    this.unavailableBecause = new Array<Array<readonly string[] | undefined> | undefined>(
      questionCount,
    );
    this.conflictsWith = new Array<Array<readonly string[] | undefined> | undefined>(questionCount);
    this.unexplained = new Array<Uint8Array | undefined>(questionCount);
    this.suppressed = new Array<string[] | undefined>(questionCount);
    this.suppressTriggers = new Uint8Array(questionCount);
    this.suppressDefault = new Uint8Array(questionCount);
  }

  /**
   * Called by each run of the value phase: the first records where it starts (warnings,
   * budget); a rerun goes back there, so its warnings and trigger records are not
   * doubled and the value phase is charged to the budget once, whatever the reruns.
   */
  startValuePhase(): void {
    if (this.valuePhase === undefined) {
      this.valuePhase = { warnings: this.warnings.length, budget: this.context.budget.mark() };
      return;
    }
    this.warnings.length = this.valuePhase.warnings;
    this.context.budget.rewind(this.valuePhase.budget);
    for (let t = 0; t < this.triggerApplied.length; t++) this.triggerApplied[t] = {};
  }

  /** Returns the context to the pool (call once the evaluation no longer needs it). */
  release(): void {
    if (this.pooled !== undefined) this.pooled.inUse = false;
  }

  error(code: string, message: string, path?: string): void {
    this.errors.push(path === undefined ? { code, message } : { code, message, path });
  }

  warning(code: string, message: string, path?: string): void {
    this.warnings.push(path === undefined ? { code, message } : { code, message, path });
  }

  ruleStatus(index: number, passed: boolean | 'pending'): RuleStatus {
    const gate = this.ruleGate[index];
    if (gate !== 'applies') return gate;
    if (passed === 'pending') return 'pending';
    return passed ? 'passed' : 'failed';
  }
}
