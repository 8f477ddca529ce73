/**
 * Guided configuration benchmark (not a test): `npm run bench:guided -- [<model.json> …]`.
 *
 * Without models: ../shared/benchmarks/renault-megane and /work/renault-big (the
 * 268-question car, docs/adr/0121) when they are there. Each model gets random option
 * prices (seeded). Then, along random walks over available options:
 * - the click's cost with and without price bounds (`priceBounds: false`), alternately on
 *   the same answer sets: median / p99 and their ratio, wall clock and this process's CPU
 *   time, and how many clicks had exact bounds; once as repeated clicks (the answers'
 *   support already kept) and once as walk clicks on two fresh compiles (each answer set
 *   new to its model, in walk order: what a buyer's click costs; the goal, ≤ 1.5×);
 * - resolutions: forced picks of unavailable options and conflicting answer sets (one
 *   answer replaced by a random option), `resolve` timed as a whole evaluation and beside
 *   the same evaluation without it (goal on the 268-question car: median ≤ 5 ms, p99 ≤ 25 ms
 *   of resolution work in the engine).
 * Env: CLICKS (answer sets timed, default 200), RESOLUTIONS (default 1000), SEED, LIMITS
 * (JSON engine limits for the compile, e.g. `{"consistencyMs":300000}` on a loaded machine),
 * BOUNDS_WORK (the price bounds' work budget of the timed clicks, e.g. `1e12`: always exact),
 * SLOW (a file: the 20 slowest resolutions' inputs are written there, slowest first),
 * REPLAY (such a file: only those resolutions are timed, each ROUNDS times (default 5), and printed one by one,
 * so that a change to the slow cases is measured on the same inputs), AGAINST (another build's
 * dist-bench/src/engine/evaluate/resolution.js, timed beside this one on the same model: with
 * REPLAY round by round; in a whole run on every resolution, the two alternating which goes
 * first, each answer compared with this build's).
 *
 * A `.dimacs` path is a public feature model (bench/feature-models.ts converts it: required
 * booleans, one clause rule per clause); past the diagram's budget it compiles into a
 * decision-DNNF (docs/adr/0193, docs/adr/0209). Its features get random prices as amount
 * adjustments `when: f == true` (a third of them), its walks answer yes or no.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compileDocument, evaluate, type CompiledModel } from '../src/engine/work.js';
import { resolveAnswers } from '../src/engine/evaluate/resolution.js';
import { prng } from '../test/support/prng.js';
import { randomlyPriced } from './random-prices.js';
import { percentile } from './consistency-figures.js';
import { loadFeatureModels } from './feature-models.js';

type Answers = Record<string, { values: unknown[] }>;
const random = prng(Number(process.env.SEED ?? 42));
const CLICKS = Number(process.env.CLICKS ?? 200);
const RESOLUTIONS = Number(process.env.RESOLUTIONS ?? 1000);
const LIMITS = JSON.parse(process.env.LIMITS ?? '{}') as Record<string, number>;
/** The price bounds' work budget of the timed clicks (`priceBoundsWork`); the engine's default when unset. */
const BOUNDS_WORK =
  process.env.BOUNDS_WORK === undefined ? {} : { priceBoundsWork: Number(process.env.BOUNDS_WORK) };
const SLOW = process.env.SLOW;
const REPLAY = process.env.REPLAY;
const AGAINST = process.env.AGAINST;
/** Times each replayed resolution is timed. */
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

function defaultModels(): string[] {
  const shared = resolve('../shared/benchmarks/renault-megane/model.json');
  return [shared, '/work/renault-big/model.json'].filter((path) => existsSync(path));
}

type LineQuestion = ReturnType<typeof evaluate>['line']['questions'][number];

/** The values of a question a click may choose (available options, or a boolean's values). */
function choosable(model: CompiledModel, question: LineQuestion): unknown[] {
  const spec = model.questions[model.questionIndex.get(question.key) as number];
  if (spec.type === 'boolean')
    return [true, false].filter((value) => !(question.unavailable_values ?? []).includes(value));
  if (question.options === undefined) return [];
  const unavailable = new Set(question.options.map((option) => option.key));
  return spec.options.filter((option) => !unavailable.has(option.key)).map((option) => option.key);
}

/** The values a forced pick may ask for: unavailable options, or a boolean's blocked values. */
function blockedValues(question: LineQuestion): unknown[] {
  return [
    ...(question.options ?? []).map((option) => option.key),
    ...(question.unavailable_values ?? []),
  ];
}

const request = (questions: Answers, extra: Record<string, unknown> = {}) => ({
  modelId: 1,
  versionNumber: 1,
  questions,
  view: 'compact' as const,
  ...extra,
});

/** Answer sets of random walks: each step answers one more question with an available option. */
function walks(model: CompiledModel, count: number): Answers[] {
  const sets: Answers[] = [];
  while (sets.length < count) {
    let answers: Answers = {};
    for (let step = 0; step < 40 && sets.length < count; step++) {
      const line = evaluate(model, request(answers, { priceBounds: false })).line;
      const open = line.questions.filter(
        (question) =>
          question.visible &&
          question.values.length === 0 &&
          (question.options !== undefined ||
            model.questions[model.questionIndex.get(question.key) as number].type === 'boolean'),
      );
      if (open.length === 0) break;
      const question = pick(open);
      const available = choosable(model, question);
      if (available.length === 0) break;
      answers = { ...answers, [question.key]: { values: [pick(available)] } };
      sets.push(answers);
    }
  }
  return sets;
}

function timed(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

/**
 * Wall-clock and CPU (user and system) milliseconds of a run. On a shared machine the CPU
 * time is the steadier of the two: the wall clock also counts time spent waiting for a core.
 */
function timedBoth(run: () => void, wall: number[], cpu: number[]): void {
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  run();
  wall.push(performance.now() - started);
  const { user, system } = process.cpuUsage(cpuStarted);
  cpu.push((user + system) / 1000);
}

const figures = (times: number[]) =>
  `median ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`;

/**
 * The clicks as a buyer makes them: each answer set new to the model, in walk order, so a
 * click reuses only what the previous click left. Two fresh compiles of the same document,
 * one answered without price bounds and one with them, step by step alternately (each
 * instance's kept passes are its own): the goal's ratio (≤ 1.5×) is read here.
 */
function walkClicks(document: Record<string, unknown>, sets: Answers[]): void {
  const fresh = () => {
    const compiled = compileDocument(document, LIMITS);
    if (!compiled.ok) throw new Error('the second compile failed');
    return compiled.model;
  };
  const plainModel = fresh();
  const boundsModel = fresh();
  evaluate(plainModel, request({}, { priceBounds: false }));
  evaluate(boundsModel, request({}, BOUNDS_WORK));
  const wall = { without: [] as number[], with: [] as number[] };
  const cpu = { without: [] as number[], with: [] as number[] };
  let exact = 0;
  for (const answers of sets) {
    timedBoth(
      () => evaluate(plainModel, request(answers, { priceBounds: false })),
      wall.without,
      cpu.without,
    );
    timedBoth(
      () => {
        if (evaluate(boundsModel, request(answers, BOUNDS_WORK)).line.price_bounds?.exact === true)
          exact++;
      },
      wall.with,
      cpu.with,
    );
  }
  const ratio = (times: { without: number[]; with: number[] }) =>
    (percentile(times.with, 0.5) / percentile(times.without, 0.5)).toFixed(2);
  console.log(`walk clicks (${sets.length}), each answer set new to its model, in walk order:`);
  console.log(`  without price bounds: ${figures(wall.without)}`);
  console.log(`  with price bounds:    ${figures(wall.with)}`);
  console.log(`  price bounds: median ratio ${ratio(wall)}× (goal ≤ 1.5×), exact in ${exact}`);
  console.log(
    `  CPU time per click: without ${figures(cpu.without)}; with ${figures(cpu.with)}; median ratio ${ratio(cpu)}×`,
  );
}

async function measure(path: string): Promise<void> {
  const raw = path.endsWith('.dimacs')
    ? (await loadFeatureModels([path]))[0].document
    : JSON.parse(readFileSync(path, 'utf8'));
  const document = randomlyPriced(raw as Record<string, unknown>, random);
  const started = performance.now();
  const compiled = compileDocument(document, LIMITS);
  if (!compiled.ok) throw new Error(`${path}: ${JSON.stringify(compiled.problems.slice(0, 3))}`);
  const model = compiled.model;
  const form = model.consistency;
  console.log(
    `\n${path}: ${model.questions.length} questions, compiled ${form.compiled} exact ${form.exact}, ` +
      `${form.nodeLayer.length} nodes / ${form.kids.length} edges` +
      (form.dnnf === undefined
        ? ''
        : `, decision-DNNF ${form.dnnf.nodeLayer.length} nodes / ${form.dnnf.kids.length} edges`) +
      `, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (REPLAY !== undefined) return await replay(model, REPLAY);
  const sets = walks(model, CLICKS);
  // Warm-up: the prepared form, the price terms.
  for (const answers of sets.slice(0, 5)) evaluate(model, request(answers));
  const without: number[] = [];
  const withBounds: number[] = [];
  const cpuWithout: number[] = [];
  const cpuWith: number[] = [];
  let exact = 0;
  for (const answers of sets) {
    timedBoth(() => evaluate(model, request(answers, { priceBounds: false })), without, cpuWithout);
    timedBoth(
      () => {
        if (evaluate(model, request(answers, BOUNDS_WORK)).line.price_bounds?.exact === true)
          exact++;
      },
      withBounds,
      cpuWith,
    );
  }
  const ratio = percentile(withBounds, 0.5) / percentile(without, 0.5);
  const cpuRatio = percentile(cpuWith, 0.5) / percentile(cpuWithout, 0.5);
  console.log(`repeated clicks (${sets.length}), the answers' support already kept:`);
  console.log(`  without price bounds: ${figures(without)}`);
  console.log(`  with price bounds:    ${figures(withBounds)}`);
  console.log(`  median ratio ${ratio.toFixed(2)}×, exact in ${exact}`);
  console.log(
    `  CPU time per click: without ${figures(cpuWithout)}; with ${figures(cpuWith)}; median ratio ${cpuRatio.toFixed(2)}×`,
  );
  walkClicks(document, sets);
  if (RESOLUTIONS === 0) return;
  const plain: number[] = [];
  const resolving: number[] = [];
  const extra: number[] = [];
  const alone: number[] = [];
  const aloneCpu: number[] = [];
  let forced = 0;
  let changes = 0;
  let inexact = 0;
  const inputs: SlowInput[] = [];
  const other = await otherBuild();
  const againstCpu: number[] = [];
  let differing = 0;
  for (let i = 0; i < RESOLUTIONS; i++) {
    const answers = pick(sets);
    const line = evaluate(model, request(answers, { priceBounds: false })).line;
    let asked: Record<string, unknown>;
    let questions = answers;
    const blocked = line.questions.filter((question) => blockedValues(question).length > 0);
    if (i % 2 === 0 && blocked.length > 0) {
      const question = pick(blocked);
      asked = { resolve: { question: question.key, value: pick(blockedValues(question)) } };
      forced++;
    } else {
      const spec = pick(
        model.questions.filter(
          (question) => question.options.length > 0 || question.type === 'boolean',
        ),
      );
      const value = spec.type === 'boolean' ? random() < 0.5 : pick(spec.options).key;
      questions = { ...answers, [spec.key]: { values: [value] } };
      asked = { resolve: true };
    }
    const before = timed(() => evaluate(model, request(questions, { priceBounds: false })));
    let resolution: { changes: unknown[]; exact: boolean } | undefined;
    const after = timed(() => {
      resolution = evaluate(model, request(questions, { ...asked, priceBounds: false })).line
        .resolution;
    });
    const asking = request(questions, asked) as Parameters<typeof resolveAnswers>[1];
    let theirs: string | undefined;
    const runOther = () => {
      if (other === undefined) return;
      const cpu = process.cpuUsage();
      theirs = JSON.stringify(other(model, asking, asking.resolve as true));
      const used = process.cpuUsage(cpu);
      againstCpu.push((used.user + used.system) / 1000);
    };
    if (i % 2 === 1) runOther();
    let ours: unknown;
    const cpu = process.cpuUsage();
    alone.push(timed(() => (ours = resolveAnswers(model, asking, asking.resolve as true))));
    const used = process.cpuUsage(cpu);
    aloneCpu.push((used.user + used.system) / 1000);
    if (i % 2 === 0) runOther();
    if (theirs !== undefined && theirs !== JSON.stringify(ours)) differing++;
    inputs.push({
      ms: alone[alone.length - 1],
      cpu: aloneCpu[aloneCpu.length - 1],
      questions,
      asked,
    });
    plain.push(before);
    resolving.push(after);
    extra.push(Math.max(0, after - before));
    changes += resolution?.changes.length ?? 0;
    if (resolution?.exact === false) inexact++;
  }
  console.log(
    `resolutions (${RESOLUTIONS}: ${forced} forced picks of options unavailable or not, the rest conflicting answer sets; ` +
      `${(changes / RESOLUTIONS).toFixed(2)} changes each, ${inexact} not exact)`,
  );
  console.log(`  evaluation with resolve: ${figures(resolving)}`);
  console.log(`  the same evaluation without: ${figures(plain)}`);
  console.log(`  resolution's own cost (difference): ${figures(extra)}`);
  console.log(
    `  the resolution alone (the answers moved, before their evaluation): ${figures(alone)}`,
  );
  // CPU time of the process (µs resolution): less sensitive to a loaded machine's scheduling.
  console.log(`  the resolution alone, CPU time: ${figures(aloneCpu)}`);
  if (other !== undefined)
    console.log(
      `  ${AGAINST} alone, CPU time, alternating: ${figures(againstCpu)}; ${differing} answers differ`,
    );
  if (SLOW !== undefined) {
    // By CPU time: on a shared machine the wall clock's tail is mostly waiting for a core.
    const slowest = inputs
      .sort((a, b) => (b.cpu ?? b.ms) - (a.cpu ?? a.ms))
      .slice(0, Number(process.env.SLOW_COUNT ?? 20));
    writeFileSync(SLOW, JSON.stringify(slowest));
    console.log(`  the 20 slowest resolutions' inputs: ${SLOW}`);
  }
}

/** A resolution's input and its time alone (SLOW, REPLAY). */
interface SlowInput {
  readonly ms: number;
  readonly cpu?: number;
  readonly questions: Answers;
  readonly asked: Record<string, unknown>;
}

/** AGAINST's `resolveAnswers`, if given. */
async function otherBuild(): Promise<typeof resolveAnswers | undefined> {
  if (AGAINST === undefined) return undefined;
  const other = (await import(resolve(AGAINST))) as { resolveAnswers: typeof resolveAnswers };
  return other.resolveAnswers;
}

/**
 * The saved resolutions, each timed alone ROUNDS times: the least and the median wall and CPU
 * time. With AGAINST (another build's dist-bench/src/engine/evaluate/resolution.js), each
 * round also times that build's resolution on the same compiled model, interleaved.
 */
async function replay(model: CompiledModel, file: string): Promise<void> {
  const inputs = JSON.parse(readFileSync(file, 'utf8')) as SlowInput[];
  const other = await otherBuild();
  const all: number[] = [];
  const against: number[] = [];
  for (const [i, input] of inputs.entries()) {
    const asking = request(input.questions, input.asked) as Parameters<typeof resolveAnswers>[1];
    const times: number[] = [];
    const cpu: number[] = [];
    let changes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      if (other !== undefined)
        timedBoth(() => other(model, asking, asking.resolve as true), [], against);
      timedBoth(
        () => (changes = resolveAnswers(model, asking, asking.resolve as true).changes.length),
        times,
        cpu,
      );
    }
    all.push(...cpu);
    console.log(
      `  #${i}: saved ${input.ms.toFixed(1)} ms; least ${Math.min(...times).toFixed(1)} ms, ` +
        `median ${percentile(times, 0.5).toFixed(1)} ms; CPU least ${Math.min(...cpu).toFixed(1)} ms, ` +
        `median ${percentile(cpu, 0.5).toFixed(1)} ms; ${changes} changes`,
    );
  }
  console.log(`replayed ${inputs.length} resolutions × ${ROUNDS}, CPU time: ${figures(all)}`);
  if (other !== undefined) console.log(`  ${AGAINST} on the same inputs: ${figures(against)}`);
}

const paths = process.argv.slice(2);
for (const path of paths.length > 0 ? paths : defaultModels()) await measure(path);
