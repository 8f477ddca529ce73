/**
 * The nearest configuration's phases on saved resolutions (not a test):
 * `SEED=42 REPLAY=<file> node --stack-size=8000 dist-bench/bench/nearest-phases.js <model.json>`
 * after `tsc -p tsconfig.bench.json`. REPLAY is a file `bench:guided` wrote with SLOW (the
 * same SEED gives the same prices; SLOW_COUNT=1000 saves every resolution). Per input and
 * per conflicting large segment: the stretch's nodes, which bound settled it, the changes,
 * the listed nodes, and each phase's least milliseconds over ROUNDS (default 5): the forward
 * bound (FORWARD_ALL: without its budget, and the edges it read), the count below, the
 * one-change walk, the whole backward bound, the pass; then the whole resolution
 * (`resolveAnswers`). STATS: per input the counts below and from the start, bucketed, and
 * the changed layers; REACH: over every input, how many edges the forward bound needs.
 */
import { readFileSync } from 'node:fs';
import { compileDocument, type CompiledModel } from '../src/engine/work.js';
import { resolveAnswers } from '../src/engine/evaluate/resolution.js';
import { answerLayers } from '../src/engine/evaluate/answer-layers.js';
import { priceTerms } from '../src/engine/evaluate/price-terms.js';
import { distinctKids } from '../src/engine/consistency/distinct-kids.js';
import { TRUE } from '../src/engine/consistency/mdd.js';
import { leastChanges, leastChangesBelow } from '../src/engine/consistency/nearest-changes.js';
import { narrowed } from '../src/engine/consistency/nearest-narrow.js';
import { newPassColumns, passSpan } from '../src/engine/consistency/nearest-pass.js';
import { countBelow, singleChangeNodes } from '../src/engine/consistency/nearest-single.js';
import {
  firstNodeAfter,
  leastPriceToTrue,
  stretchOf,
} from '../src/engine/consistency/nearest-stretch.js';
import { NEAREST_TUNING } from '../src/engine/consistency/nearest-by-search.js';
import { prepareForm } from '../src/engine/consistency/prepared.js';
import { isConsistent } from '../src/engine/consistency/query.js';
import { type SegmentSpan, segmentSpan } from '../src/engine/consistency/segments.js';
import { withinBudget } from '../src/engine/consistency/work.js';
import { prng } from '../test/support/prng.js';
import { randomlyPriced } from './random-prices.js';

const random = prng(Number(process.env.SEED ?? 42));
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const LIMITS = JSON.parse(process.env.LIMITS ?? '{"consistencyMs":300000}') as Record<
  string,
  number
>;

interface SlowInput {
  readonly ms: number;
  readonly questions: Record<string, { values: unknown[] }>;
  readonly asked: { resolve?: true | { question: string; value: unknown } };
}

/** The query as resolution.ts builds it (answers assumed to fit, as the bench makes them). */
function queryOf(model: CompiledModel, input: SlowInput) {
  const form = model.consistency;
  const layers = form.domain.length;
  const target = new Int32Array(layers).fill(-1);
  const fixed = new Int32Array(layers).fill(-1);
  const order: number[] = [];
  const resolve = input.asked.resolve;
  const forced =
    resolve === undefined || resolve === true
      ? undefined
      : model.questions[model.questionIndex.get(resolve.question) as number];
  for (const question of model.questions) {
    const answer = input.questions[question.key];
    if (answer === undefined || question === forced) continue;
    const { layers: own, codes } = answerLayers(model, question, answer.values);
    own.forEach((layer, i) => {
      target[layer] = codes[i];
      order.push(layer);
    });
  }
  if (forced !== undefined && resolve !== undefined && resolve !== true) {
    const { layers: own, codes } = answerLayers(model, forced, [resolve.value]);
    own.forEach((layer, i) => (fixed[layer] = codes[i]));
  }
  const rank = new Int32Array(layers).fill(-1);
  order.forEach((layer, i) => (rank[layer] = i));
  const price = priceTerms(model).weights?.lo;
  return { target, fixed, rank, order, price };
}

function least(run: () => unknown): { ms: number; result: unknown } {
  let best = Infinity;
  let result: unknown;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    result = run();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, result };
}

const path = process.argv[2] ?? '/work/renault-big/model.json';
const document = randomlyPriced(
  JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>,
  random,
);
const compiled = compileDocument(document, LIMITS);
if (!compiled.ok) throw new Error('compile failed');
const model = compiled.model;
const form = model.consistency;
const prepared = prepareForm(form);
const columns = newPassColumns(form.nodeLayer.length);
const inputs = JSON.parse(readFileSync(process.env.REPLAY as string, 'utf8')) as SlowInput[];
const kept = new Int32Array(form.domain.length);
let distinct: ReturnType<typeof distinctKids> | undefined;

/** The span's deepest restricted layer, and the first node past it (the bounds read only those before). */
function stretchEnd(query: Parameters<typeof stretchOf>[1], span: SegmentSpan) {
  const { deepest } = stretchOf(form, query, span);
  const end = span.end === TRUE ? form.nodeLayer.length : span.end;
  return { deepest, last: firstNodeAfter(form, deepest, span.start, end) };
}

/** The bounds' scratch over this bench's columns (as nearest-by-search.ts builds it). */
const forwardScratch = (visit: typeof prepared.visit, kids: ReturnType<typeof distinctKids>) => ({
  visit,
  down: columns.changes,
  frontier: columns.frontier,
  list: columns.list,
  listShare: 1,
  distinct: kids,
});
const backwardScratch = (visit: typeof prepared.visit, kids: ReturnType<typeof distinctKids>) => ({
  below: columns.below,
  distinct: kids,
  visit,
  list: columns.list,
  listShare: 1,
  order: columns.frontier,
});
let below: Float64Array | undefined;
for (const [i, input] of (process.env.REACH === undefined ? inputs : []).entries()) {
  const q = queryOf(model, input);
  distinct ??= distinctKids(form, q.price);
  below ??= q.price === undefined ? undefined : leastPriceToTrue(form, q.price);
  const query = { ...q, priceBelow: below };
  const asking = {
    modelId: 1,
    versionNumber: 1,
    questions: input.questions,
    view: 'compact' as const,
    ...input.asked,
  } as Parameters<typeof resolveAnswers>[1];
  const whole = least(() => resolveAnswers(model, asking, asking.resolve as true)).ms;
  for (let layer = 0; layer < kept.length; layer++)
    kept[layer] = q.fixed[layer] >= 0 ? q.fixed[layer] : q.target[layer];
  const parts: string[] = [];
  for (let s = 0; s < prepared.segments.fromLayer.length; s++) {
    const span = segmentSpan(prepared.segments, s);
    const edges =
      (span.end === TRUE ? form.kids.length : form.kidStart[span.end]) - form.kidStart[span.start];
    if (edges <= NEAREST_TUNING.unguidedWork) continue;
    if (isConsistent(form, kept, s)) continue;
    const { deepest, last } = stretchEnd(query, span);
    const visit = prepared.visit;
    const scratch = forwardScratch(visit, distinct!);
    const allowed =
      process.env.FORWARD_ALL !== undefined
        ? 1e12
        : Math.min(NEAREST_TUNING.forwardWork, NEAREST_TUNING.forwardShare * (last - span.start));
    const fwdWork = { left: allowed };
    const fwd = least(() => {
      fwdWork.left = allowed;
      return withinBudget(() => leastChanges(form, query, span, last, scratch, fwdWork));
    });
    const bounds = { start: span.start, last, end: span.end };
    // The count needs the counts of FALSE, TRUE and the nodes from `last` (as the bound sets them).
    const counted = () => {
      columns.below[0] = 255;
      columns.below[TRUE] = span.end === TRUE ? 0 : 255;
      columns.below.fill(0, last, span.end === TRUE ? form.nodeLayer.length : span.end + 1);
      return countBelow(form, query, bounds, columns.below, distinct!);
    };
    const agree = least(counted).ms;
    const walk = least(() => {
      counted();
      if (columns.below[span.start] !== 1) return { single: false, count: 0 };
      const epoch = ++visit.epoch;
      return singleChangeNodes(
        form,
        query,
        bounds,
        columns.below,
        distinct!,
        { stamp: visit.stamp, epoch },
        columns.list,
      );
    });
    const backScratch = backwardScratch(visit, distinct!);
    const back = least(() => leastChangesBelow(form, query, span, last, backScratch));
    const bound =
      (fwd.result as ReturnType<typeof leastChanges> | undefined) ??
      leastChangesBelow(form, query, span, last, backScratch);
    const p = new Int32Array(form.domain.length);
    // The pass: re-run the bound it needs before each round (the pass writes over `down`).
    let passMs = Infinity;
    let narrowMs = Infinity;
    let narrowedNodes: number | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      let b =
        fwd.result !== undefined
          ? (withinBudget(() =>
              leastChanges(form, query, span, last, scratch, { left: allowed }),
            ) as ReturnType<typeof leastChanges>)
          : leastChangesBelow(form, query, span, last, backScratch);
      if (fwd.result !== undefined) {
        const forward = b;
        const started = performance.now();
        b = narrowed(form, query, span, last, forward, columns.below, distinct!);
        narrowMs = Math.min(narrowMs, performance.now() - started);
        narrowedNodes = b.nodes?.length;
      }
      const started = performance.now();
      passSpan(form, query, span, p, columns, distinct!, undefined, b.changes > 0 ? b : undefined);
      passMs = Math.min(passMs, performance.now() - started);
    }
    const single = walk.result as { single: boolean; count: number };
    parts.push(
      `seg ${s} stretch ${last - span.start} nodes (layers ${span.fromLayer}-${deepest}), ` +
        `${fwd.result === undefined ? 'backward' : 'forward'} c=${bound.changes} listed ${bound.nodes?.length ?? 'all'}; ` +
        `fwd ${fwd.ms.toFixed(1)} (${allowed - fwdWork.left} edges) count ${agree.toFixed(1)} walk ${(walk.ms - agree).toFixed(1)}${single.single ? ` (single, ${single.count})` : ''} ` +
        `back ${back.ms.toFixed(1)}` +
        (narrowedNodes === undefined
          ? ''
          : ` narrowed to ${narrowedNodes} in ${narrowMs.toFixed(1)}`) +
        ` pass ${passMs.toFixed(1)}`,
    );
  }
  console.log(
    `#${i} saved ${input.ms.toFixed(1)} whole ${whole.toFixed(1)} ms: ${parts.join(' | ')}`,
  );
}

if (process.env.STATS !== undefined) {
  for (const [i, input] of inputs.entries()) {
    const q = queryOf(model, input);
    const query = { ...q, priceBelow: below };
    const span = segmentSpan(prepared.segments, 0);
    const { deepest, last } = stretchEnd(query, span);
    const visit = prepared.visit;
    const backScratch = backwardScratch(visit, distinct!);
    const b = leastChangesBelow(form, query, span, last, backScratch);
    const hist = new Array<number>(20).fill(0);
    for (let id = span.start; id < last; id++) hist[Math.min(19, columns.below[id])]++;
    const scratch = forwardScratch(visit, distinct!);
    const f = leastChanges(form, query, span, last, scratch);
    const fh = new Array<number>(20).fill(0);
    for (let id = span.start; id < last; id++)
      if (visit.stamp[id] === f.epoch) fh[Math.min(19, columns.changes[id])]++;
    const fixedLayers = [...q.fixed.keys()].filter((l) => q.fixed[l] >= 0);
    let monotone = true;
    for (let k = 1; k < q.order.length; k++) if (q.order[k] < q.order[k - 1]) monotone = false;
    const p = new Int32Array(form.domain.length);
    passSpan(form, query, span, p, columns, distinct!, undefined, undefined);
    const changed = q.order.filter((l) => p[l] !== q.target[l]);
    console.log(
      `#${i} c=${b.changes} listed ${b.nodes?.length} fixed ${fixedLayers} deepest ${deepest} answers ${q.order.length} monotone ${monotone} changed layers ${changed}\n` +
        `   below hist ${hist.join(',')}\n   fwd(<=c) hist ${fh.join(',')}`,
    );
  }
}

if (process.env.REACH !== undefined) {
  // Per resolution whose large segment conflicts: the edges the forward bound reads to finish.
  const reach: number[] = [];
  for (const input of inputs) {
    const q = queryOf(model, input);
    distinct ??= distinctKids(form, q.price);
    const query = { ...q, priceBelow: below };
    const span = segmentSpan(prepared.segments, 0);
    const { last } = stretchEnd(query, span);
    const scratch = forwardScratch(prepared.visit, distinct!);
    const work = { left: 1e12 };
    const bound = leastChanges(form, query, span, last, scratch, work);
    if (bound.changes > 0) reach.push(1e12 - work.left);
  }
  reach.sort((a, b) => a - b);
  const at = (p: number) => reach[Math.min(reach.length - 1, Math.floor(p * reach.length))];
  console.log(
    `${reach.length} conflicting: forward edges p50 ${at(0.5)} p75 ${at(0.75)} p90 ${at(0.9)} p95 ${at(0.95)} p99 ${at(0.99)}`,
  );
  for (const limit of [50e3, 75e3, 100e3, 150e3, 200e3, 300e3])
    console.log(`  within ${limit}: ${reach.filter((r) => r <= limit).length}`);
}
