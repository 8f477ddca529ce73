import type { ModelCore } from '../model-core.js';
import { PartBuilder } from './build.js';
import { finiteDomain, type LayerPlan, layerFields, planLayers } from './domains.js';
import { type ConsistencyForm, flatten } from './form.js';
import { compileFallback, hasBudget } from './fallback.js';
import { conjoinScheduled } from './conjunction.js';
import { deadOptions } from './dead-options.js';
import { FALSE, MddStore, TRUE } from './mdd.js';
import { BudgetExceeded } from './mdd-budget.js';
import { orderQuestions } from './order.js';
import { findFinitePart, type Part } from './parts.js';
import { freeAssignment, supports } from './query.js';
import { quickXplain } from './quickxplain.js';

export interface CompileChoice {
  /**
   * false: no diagram, straight to the form past its budget (the decision-DNNF, else
   * propagation), as a model the diagram cannot compile gets: the property tests and the
   * bench compare both forms of one model.
   */
  readonly diagram?: boolean;
}

/** The diagram's work budget of a finite part with no table (see diagramSteps). */
export const DNNF_FIRST_DIAGRAM_STEPS = 2_000_000;

/** Compile budget of the consistency form (docs/model-format.md "Limits"). */
export interface ConsistencyLimits {
  /** Milliseconds of compile time (default 30 s): a safety net, the steps are the budget. */
  consistencyMs: number;
  /** Units of compile work (default DEFAULT_CONSISTENCY_STEPS): deterministic. */
  consistencySteps: number;
  /** Bytes of diagram storage while compiling (default 256 MB). */
  consistencyBytes: number;
  /** Assignments enumerated to turn one expression into a constraint (default 100,000). */
  consistencyEnumeration: number;
}

/**
 * Compiles the finite part of a model into its solution space (an MDD): each part is
 * a diagram, conjoined top-down by the deepest layer each reads or, past a fifth of the
 * work budget, by a tree decomposition's schedule (docs/adr/0121), then flattened. Pure and synchronous, callable from
 * a worker thread. Past the budget the form is not compiled (`compiled: false`) and
 * evaluation falls back to propagation.
 */
export function compileConsistency(
  model: ModelCore,
  limits: ConsistencyLimits,
  { diagram = true }: CompileChoice = {},
): ConsistencyForm {
  const started = performance.now();
  const domains = model.questions.map(finiteDomain);
  const finitePart = findFinitePart(model, domains, limits.consistencyEnumeration);
  const scopes = finitePart.parts.map((part) => scopeOf(part));
  const order = orderQuestions(model.questions.length, scopes);
  const plan = planLayers(model, domains, order);
  const steps = diagramSteps(finitePart.parts, limits);
  const store = new MddStore(plan.domain, {
    deadline: started + limits.consistencyMs,
    bytes: limits.consistencyBytes,
    steps,
  });
  const builder = new PartBuilder(model, plan, store);
  const base = layerFields(plan);
  let root = TRUE;
  try {
    if (!hasBudget(limits)) throw new BudgetExceeded('the compile budget is zero');
    if (!diagram) throw new BudgetExceeded('no diagram asked for');
    // Each part's root is pinned: kept by the garbage collections until it is conjoined.
    for (const part of finitePart.parts) store.pins.push(store.retrying(() => builder.build(part)));
    root = conjoinScheduled(store, plan, scopes, model.questions.length, steps);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    return compileFallback(model, finitePart, plan, base, limits, error.reason, started);
  }
  const conflict =
    root === FALSE ? conflictWithinBudget(model, plan, finitePart.parts, limits) : [];
  const flat = flatten(store, root);
  const left = [...finitePart.left, ...builder.left];
  const exact = left.length === 0;
  const reason = exact ? undefined : `not in the diagram: ${left.join('; ')}`;
  const partial = {
    ...base,
    ...flat,
    exact,
    reason,
    compiled: true,
    partRoots: new Int32Array(0),
    conflict,
    // Only parts wholly in the diagram: the local check still applies the others.
    partSources: finitePart.parts
      .map((part) => part.source)
      .filter((source) => !builder.partial.has(source)),
  };
  const form: ConsistencyForm = {
    ...partial,
    analysis: {
      exact,
      ...(reason === undefined ? {} : { reason }),
      configurations: '0',
      dead_options: [],
      compile_ms: 0,
      size: {
        nodes: flat.nodeLayer.length - 2,
        edges: flat.kids.length,
        bytes:
          flat.nodeLayer.byteLength +
          flat.kidStart.byteLength +
          flat.kids.byteLength +
          base.domain.byteLength * 5 +
          base.valueBase.byteLength,
      },
    },
  };
  const free = freeAssignment(form);
  const valid = supports(form, free);
  // Parts left out only remove constraints: the diagram's count is then an upper bound.
  const count = valid.configurations();
  form.analysis.configurations = exact ? count : null;
  if (!exact) form.analysis.configurations_at_most = count;
  form.analysis.dead_options = deadOptions(model, form, valid.supported);
  form.analysis.compile_ms = Math.round(performance.now() - started);
  return form;
}

/**
 * The diagram's work budget: the compile's, but for a finite part with no table (clauses,
 * cardinalities, requires/excludes, required and visibility: a feature model's parts) at
 * most DNNF_FIRST_DIAGRAM_STEPS, past which the decision-DNNF gets the fallback's budget
 * (fallback.ts, docs/adr/0193): windows 7 spent 50 million steps, 75 s, on a diagram the
 * DNNF compiles in about 2 s, while the small boolean models stay diagrams (guided queries
 * need one).
 */
function diagramSteps(parts: readonly Part[], limits: ConsistencyLimits): number {
  if (parts.some((part) => part.kind === 'table')) return limits.consistencySteps;
  return Math.min(limits.consistencySteps, DNNF_FIRST_DIAGRAM_STEPS);
}

/** The questions a part reads or restricts (for the variable order). */
function scopeOf(part: Part): number[] {
  const scope = new Set(part.inputs);
  if (part.kind === 'status' || part.kind === 'available') scope.add(part.question);
  if (part.kind === 'table' && part.rule.table !== undefined)
    for (const column of part.rule.table.columns) scope.add(column);
  if (part.kind === 'logic' && part.rule.logic !== undefined)
    for (const q of part.rule.logic.questions) scope.add(q);
  return [...scope];
}

/**
 * The minimal conflict, or, when finding it runs out of the compile budget, every part: a
 * true (not minimal) conflict, never an empty one, which would accept a model that has no
 * valid configuration. The parts are built again in a store of their own (the compile's
 * freed them as it conjoined).
 */
function conflictWithinBudget(
  model: ModelCore,
  plan: LayerPlan,
  parts: readonly Part[],
  limits: ConsistencyLimits,
): string[] {
  try {
    const store = new MddStore(plan.domain, {
      deadline: performance.now() + limits.consistencyMs,
      bytes: limits.consistencyBytes,
      steps: limits.consistencySteps,
    });
    const builder = new PartBuilder(model, plan, store);
    for (const part of parts) store.pins.push(builder.build(part));
    return minimalConflict(store, parts, [...store.pins]);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    return parts.map((part) => part.source);
  }
}

/** A minimal set of parts whose conjunction is empty (for `inconsistent_model`). */
function minimalConflict(
  store: MddStore,
  parts: readonly Part[],
  roots: readonly number[],
): string[] {
  const indexes = roots.map((_, i) => i);
  const consistent = (set: readonly number[]): boolean => {
    let root = TRUE;
    for (const i of set) {
      root = store.apply('and', root, roots[i]);
      if (root === FALSE) return false;
    }
    return true;
  };
  const found = quickXplain(indexes, consistent) ?? [];
  return found.map((i) => parts[i].source);
}

/** A stored form belongs to this model: same finite questions with the same domains. */
export function formFitsModel(form: ConsistencyForm, model: ModelCore): boolean {
  if (form.firstLayer.length !== model.questions.length) return false;
  return model.questions.every((question) => {
    const finite = finiteDomain(question);
    const first = form.firstLayer[question.index];
    if (finite === undefined) return first === -1;
    if (first < 0) return false;
    if (finite.kind === 'multi') return form.layerCount[question.index] === finite.options;
    return form.layerCount[question.index] === 1 && form.domain[first] === finite.values.length;
  });
}
