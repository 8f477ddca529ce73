import type { ModelCore } from '../model-core.js';
import { PartBuilder } from './build.js';
import type { LayerFields, LayerPlan } from './domains.js';
import type { ConsistencyForm } from './form.js';
import { deadOptions } from './dead-options.js';
import { exactByDnnf, type ExactByDnnf } from './dnnf-exact.js';
import { MddStore, TRUE } from './mdd.js';
import { BudgetExceeded } from './mdd-budget.js';
import type { FinitePart } from './parts.js';
import { propagatorOf } from './prepared.js';
import { domainProduct } from './propagate.js';
import { quickXplain } from './quickxplain.js';
import { fallbackBudget, type FallbackBudget, hasBudget } from './budget.js';

export {
  consistencyTimeLimitMs,
  DEFAULT_CONSISTENCY_STEPS,
  hasBudget,
  type FallbackBudget,
} from './budget.js';

/**
 * Past the compile budget (docs/model-format.md "Consistency": "availability is computed by
 * propagation over each table and rule"): instead of their conjunction, each part of
 * the finite part is kept as its own small diagram (a forest in the form's node
 * arrays, `partRoots`), for generalized arc consistency at evaluation (propagate.ts).
 * The forest is bounded by the same budget counted afresh (the engine defaults when
 * the budget is zero, which means "no diagram"); a part that does not fit stays out
 * and its local check keeps applying, as for parts outside the diagram.
 *
 * The analysis is what propagation can prove: `configurations_at_most` is an upper bound (the
 * product of the propagated domains), `dead_options` the options propagation removes
 * with nothing answered (a subset of the dead options), and a wipe-out with nothing
 * answered refuses the model, naming a set of parts minimal for propagation.
 */
export function compileFallback(
  model: ModelCore,
  finitePart: FinitePart,
  plan: LayerPlan,
  base: LayerFields,
  limits: FallbackBudget,
  reason: string,
  started: number,
): ConsistencyForm {
  const budget = fallbackBudget(limits);
  const deadline = performance.now() + budget.consistencyMs;
  const forest = new Forest(plan.domain);
  const left = [...finitePart.left];
  /** Parts that did not fit in the propagation budget (named in `reason`, the first few). */
  const dropped: string[] = [];
  const partial = new Set<string>();
  let store: MddStore;
  let builder: PartBuilder;
  /** A fresh store (the previous builder's notes kept). */
  const renew = (): void => {
    if (builder !== undefined) {
      left.push(...builder.left);
      for (const source of builder.partial) partial.add(source);
    }
    store = new MddStore(plan.domain, {
      deadline,
      bytes: budget.consistencyBytes,
      steps: budget.consistencySteps,
    });
    builder = new PartBuilder(model, plan, store);
  };
  renew();
  let pending: Array<{ part: number; root: number }> = [];
  const built: number[] = [];
  const tryBuild = (part: number): boolean => {
    try {
      pending.push({ part, root: builder.build(finitePart.parts[part]) });
      return true;
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      return false;
    }
  };
  for (let part = 0; part < finitePart.parts.length; part++) {
    const source = finitePart.parts[part].source;
    if (performance.now() > deadline || forest.bytes > budget.consistencyBytes) {
      dropped.push(source);
      continue;
    }
    if (tryBuild(part)) continue;
    // The store is full: keep what it holds, retry this part alone in a fresh one.
    built.push(...forest.add(store!, pending));
    pending = [];
    renew();
    if (tryBuild(part)) continue;
    dropped.push(source);
    renew();
  }
  built.push(...forest.add(store!, pending));
  renew();
  if (dropped.length > 0) {
    const named = dropped.slice(0, 5).join(', ') + (dropped.length > 5 ? ', …' : '');
    left.push(`${dropped.length} parts past the propagation budget (${named})`);
  }
  const flat = forest.finish();
  const partSources = built
    .map((part) => finitePart.parts[part].source)
    .filter((source) => !partial.has(source));
  const fullReason = [
    `${reason}; availability by propagation over each part`,
    ...(left.length > 0 ? [`not propagated: ${left.join('; ')}`] : []),
  ].join('; ');
  const form: { -readonly [K in keyof ConsistencyForm]: ConsistencyForm[K] } = {
    ...base,
    exact: false,
    reason: fullReason,
    compiled: false,
    root: TRUE,
    ...flat,
    partSources,
    conflict: [],
    analysis: {
      exact: false,
      reason: fullReason,
      configurations: null,
      dead_options: [],
      compile_ms: 0,
      size: {
        nodes: flat.nodeLayer.length - 2,
        edges: flat.kids.length,
        bytes: flat.nodeLayer.byteLength * 2 + flat.kids.byteLength + flat.partRoots.byteLength,
      },
    },
  };
  const sources = built.map((part) => finitePart.parts[part].source);
  const exact =
    // A zero budget means no compiled form at all: propagation only.
    hasBudget(limits) && left.length === 0 && partial.size === 0
      ? exactByDnnf(model, form, sources, {
          deadline,
          bytes: budget.consistencyBytes,
          steps: budget.consistencySteps,
        })
      : undefined;
  if (exact !== undefined) return withDnnf(form, exact, started);
  // propagatorOf prepares the form (prepared.ts): its first evaluation reuses this propagator.
  const propagator = propagatorOf(form);
  form.conflict =
    propagator.base === undefined
      ? (
          quickXplain(
            built.map((_, i) => i),
            (set) => propagator.consistentParts(set),
          ) ?? []
        ).map((i) => finitePart.parts[built[i]].source)
      : [];
  form.analysis.configurations_at_most = domainProduct(form, propagator.base);
  form.analysis.dead_options =
    propagator.base === undefined ? [] : deadOptions(model, form, propagator.base);
  form.analysis.compile_ms = Math.round(performance.now() - started);
  return form;
}

/** The fallback form made exact by its decision-DNNF (dnnf-exact.ts). */
function withDnnf(
  form: { -readonly [K in keyof ConsistencyForm]: ConsistencyForm[K] },
  exact: ExactByDnnf,
  started: number,
): ConsistencyForm {
  const { dnnf } = exact;
  form.exact = true;
  form.reason = undefined;
  form.dnnf = dnnf;
  form.conflict = exact.conflict;
  form.analysis = {
    exact: true,
    configurations: exact.configurations,
    dead_options: exact.deadOptions,
    compile_ms: Math.round(performance.now() - started),
    size: {
      nodes: dnnf.nodeLayer.length - 2,
      edges: dnnf.kids.length,
      bytes: form.analysis.size.bytes + exact.bytes,
    },
  };
  return form;
}

/** Per-part diagrams from one or more stores, copied into one set of flat arrays. */
class Forest {
  private readonly nodeLayer: number[] = [-1, -1];
  private readonly kidStart: number[] = [0, 0];
  private readonly kids: number[] = [];
  private readonly roots: number[] = [];

  constructor(private readonly domain: Int32Array) {}

  get bytes(): number {
    return (this.nodeLayer.length * 2 + this.kids.length) * 4;
  }

  /** Copies the nodes reachable from the roots; returns the parts added, in order. */
  add(store: MddStore, entries: ReadonlyArray<{ part: number; root: number }>): number[] {
    const id = new Map<number, number>();
    const copy = (node: number): number => {
      if (node <= TRUE) return node;
      const known = id.get(node);
      if (known !== undefined) return known;
      // Children first (an explicit stack: a chain of thousands of layers is fine).
      const stack = [node];
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        if (id.has(top)) {
          stack.pop();
          continue;
        }
        const size = this.domain[store.layerOf[top]];
        let ready = true;
        for (let v = 0; v < size; v++) {
          const kid = store.child(top, v);
          if (kid > TRUE && !id.has(kid)) {
            stack.push(kid);
            ready = false;
          }
        }
        if (!ready) continue;
        stack.pop();
        const at = this.nodeLayer.length;
        this.nodeLayer.push(store.layerOf[top]);
        this.kidStart.push(this.kids.length);
        for (let v = 0; v < size; v++) {
          const kid = store.child(top, v);
          this.kids.push(kid <= TRUE ? kid : (id.get(kid) as number));
        }
        id.set(top, at);
      }
      return id.get(node) as number;
    };
    for (const entry of entries) this.roots.push(copy(entry.root));
    return entries.map((entry) => entry.part);
  }

  finish(): {
    nodeLayer: Int32Array;
    kidStart: Int32Array;
    kids: Int32Array;
    partRoots: Int32Array;
  } {
    return {
      nodeLayer: Int32Array.from(this.nodeLayer),
      kidStart: Int32Array.from(this.kidStart),
      kids: Int32Array.from(this.kids),
      partRoots: Int32Array.from(this.roots),
    };
  }
}
