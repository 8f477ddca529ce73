/**
 * Consistency benchmark (not a test):
 * `npm run bench:consistency -- [--baseline <checkout or index.js>] [<model.json> [sales.txt]]`.
 *
 * Without a model: renault-medium (with its sales) and renault-megane from
 * ../shared/benchmarks (BENCHMARKS overrides the folder) when they are there, then
 * generated table models. For each: compile time, diagram size, stored form, heap, the
 * exact count, clicks (one evaluation per answer set of the random walks) median / p99 /
 * max; with `--baseline`, the same figures of another engine build (a checkout with
 * `dist-bench`, built by `npx tsc -p tsconfig.bench.json`, or its engine's index.js)
 * beside each, measured in the same run (clicks alternately on the same answer sets).
 * Then random walks over available options (every walk must end valid) and, with a sales
 * file, a replay of sold configurations in random order (no option a sold car used may
 * ever be reported unavailable), and the budget fallback.
 * Exits non-zero when a random walk dead-ends or ends invalid, or a sold option is
 * reported unavailable (CI runs it on renault-medium and renault-megane when ../shared is
 * there). Past the budget (propagation, then a completion search within a budget) walks
 * are reported, never failed: an option the search's budget left unconfirmed may still
 * dead-end (the line lists it in `consistency.unconfirmed`).
 * Env: WALKS (default 30), SALES_LIMIT (cars replayed, default 400), FALLBACK_WALKS
 * (walks with the model compiled past the budget, default 10; 0 skips),
 * EXTRA (wide,crafted: issue #28's generated wide-table model at 10× renault-megane and
 * the crafted single-table model; EXTRA= skips them), WIDE_WALKS (1), CRAFTED_WALKS (40),
 * SKIP_GENERATED=1, SKIP_PROPAGATION_COMPARE=1 (the walks' answer sets evaluated again
 * without the diagram), SEED, BENCHMARKS, MODELS (comma-separated: medium, megane),
 * LIMITS (engine limits for the real cars' compiles, JSON: `{"consistencyMs":300000}`
 * lifts the wall-clock safety net on a loaded machine, where it fires before the work
 * budget; the work and byte budgets stay the defaults), FEATURE_MODELS (comma-separated
 * DIMACS CNF paths, converted at bench time: bench/feature-models.ts; FEATURE_STEPS clicks
 * of a random walk each, default 40).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import * as stages from '../src/engine/work.js';
import { type CompiledModel } from '../src/engine/work.js';
import {
  type Answers,
  compileFigures,
  digits,
  type Engine,
  engineOf,
  loadEngine,
  percentile,
  printFigures,
  timeClicks,
} from './consistency-figures.js';
import {
  generateSingleTableModel,
  generateTableModel,
  generateWideTableModel,
} from './generate-table-model.js';
import { prng } from '../test/support/prng.js';
import { loadFeatureModels } from './feature-models.js';

/** The tests' seeded generator: the same walks for the same SEED. */
const random = prng(Number(process.env.SEED ?? 42));
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** This build, under the names the figures use (consistency-figures.ts engineOf). */
const engine = engineOf(stages);

const timings: number[] = [];
/** Unavailable options seen since the last reset, and those past the explanation budget. */
const unavailableSeen = { unavailable: 0, unexplained: 0 };
/** The answer sets evaluated while recording (for the same-run comparison). */
let recorded: Answers[] | undefined;
function evaluate(model: CompiledModel, answers: Answers) {
  recorded?.push({ ...answers });
  const started = performance.now();
  const result = stages.evaluate(model, { modelId: 1, versionNumber: 1, questions: answers });
  timings.push(performance.now() - started);
  for (const question of result.line.questions)
    for (const option of question.options ?? []) {
      if (option.available) continue;
      unavailableSeen.unavailable++;
      if (option.explained === false) unavailableSeen.unexplained++;
    }
  return result;
}

/** The share of unavailable options explained within the budget since the last reset. */
function explainedShare(): string {
  const { unavailable, unexplained } = unavailableSeen;
  unavailableSeen.unavailable = 0;
  unavailableSeen.unexplained = 0;
  if (unavailable === 0) return 'explained share n/a (no unavailable option)';
  const share = (100 * (unavailable - unexplained)) / unavailable;
  return `explained share ${share.toFixed(1)} % of ${unavailable} unavailable options`;
}

const ms = (value: number): string => `${value.toFixed(2)} ms`;

/** This build's figures, and the baseline's beside them (same run). */
function compileTimed(
  document: unknown,
  limits: Record<string, number> = {},
  answerSets?: (model: CompiledModel) => Answers[],
): { model: CompiledModel } {
  const mine = compileFigures(engine, document, limits);
  const theirs = base === undefined ? undefined : compileFigures(base, document, limits);
  const sets = answerSets?.(mine.model as CompiledModel) ?? [];
  const clicks = timeClicks(
    [
      { build: engine, model: mine.model },
      ...(base === undefined || theirs === undefined ? [] : [{ build: base, model: theirs.model }]),
    ],
    sets,
  );
  printFigures(mine, clicks, theirs);
  return { model: mine.model as CompiledModel };
}

/**
 * Answers every question in random order, always picking an available option; a dead
 * end is a required question with none left.
 */
function randomWalk(model: CompiledModel): { valid: boolean; deadEnd: string | undefined } {
  const answers: Answers = {};
  for (const question of shuffle([...model.questions])) {
    const line = evaluate(model, answers).line;
    const current = line.questions[question.index];
    if (!current.visible || question.options.length === 0) continue;
    const available = (current.options ?? []).filter((option) => option.available);
    if (available.length === 0) {
      // An optional question may stay unanswered (no value matches every row).
      if (!current.required) continue;
      return { valid: false, deadEnd: question.key };
    }
    const pick = available[Math.floor(random() * available.length)];
    answers[question.key] = { values: [pick.key] };
  }
  return { valid: evaluate(model, answers).valid, deadEnd: undefined };
}

/** Enters sold cars in random order; every value a car used must be available when entered. */
function replaySales(model: CompiledModel, path: string, limit: number): number {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  const keys = lines[0].trim().split(/\s+/);
  const cars = shuffle(lines.slice(1)).slice(0, limit);
  let hidden = 0;
  let entered = 0;
  for (const car of cars) {
    const values = car.trim().split(/\s+/);
    const answers: Answers = {};
    const order = shuffle(keys.map((_, i) => i));
    for (const i of order) {
      const key = keys[i];
      const option = values[i] === '-1' ? 'n1' : `o${values[i]}`;
      const line = evaluate(model, answers).line;
      const question = line.questions.find((candidate) => candidate.key === key);
      const offered = question?.options?.find((candidate) => candidate.key === option);
      if (offered === undefined || !offered.available) hidden++;
      answers[key] = { values: [option] };
      entered++;
    }
  }
  console.log(
    `  sales replay: ${cars.length} cars, ${entered} answers entered in random order, ` +
      `${hidden} times a sold option was reported unavailable (must be 0)`,
  );
  return hidden;
}

/** Random walks; returns how many did not end valid. */
function walks(model: CompiledModel, count: number, label: string): number {
  let ended = 0;
  const deadEnds: string[] = [];
  timings.length = 0;
  explainedShare(); // reset
  for (let w = 0; w < count; w++) {
    const walk = randomWalk(model);
    if (walk.valid) ended++;
    if (walk.deadEnd !== undefined) deadEnds.push(walk.deadEnd);
  }
  console.log(
    `  ${label}: ${ended}/${count} ended valid, ${deadEnds.length} dead ends` +
      `${deadEnds.length > 0 ? ` (at ${deadEnds.join(', ')})` : ''}; evaluation median ` +
      `${ms(percentile(timings, 0.5))}, p99 ${ms(percentile(timings, 0.99))}, max ` +
      `${ms(Math.max(...timings))} over ${timings.length}; ${explainedShare()}`,
  );
  return count - ended;
}

/** The guarantee failed (a dead end, an invalid walk, a sold option unavailable). */
let failures = 0;

/** Runs `walk` while recording the answer sets it evaluates (the clicks timed for both builds). */
function recording(walk: () => void): Answers[] {
  recorded = [];
  walk();
  const sets = recorded;
  recorded = undefined;
  return sets;
}

function benchModel(path: string, salesPath: string | undefined): void {
  console.log(`model ${path}`);
  const document: unknown = JSON.parse(readFileSync(path, 'utf8'));
  let answerSets: Answers[] = [];
  const limits = JSON.parse(process.env.LIMITS ?? '{}') as Record<string, number>;
  const { model } = compileTimed(document, limits, (compiled) => {
    answerSets = recording(() => {
      failures += walks(compiled, Number(process.env.WALKS ?? 30), 'random walks (exact)');
    });
    return answerSets;
  });
  if (process.env.SKIP_PROPAGATION_COMPARE !== '1') compareSameRun(document, model, answerSets);
  if (salesPath !== undefined) {
    timings.length = 0;
    failures += replaySales(model, salesPath, Number(process.env.SALES_LIMIT ?? 400));
    console.log(
      `  evaluation during replay: median ${ms(percentile(timings, 0.5))}, p99 ${ms(percentile(timings, 0.99))}`,
    );
  }
  const fallbackWalks = Number(process.env.FALLBACK_WALKS ?? 10);
  if (fallbackWalks > 0) {
    console.log('  past the budget (MODEL_CONSISTENCY_MS=0: propagation over each part):');
    const { model: propagated } = compileTimed(document, { consistencyMs: 0 });
    walks(propagated, fallbackWalks, 'random walks (propagation)');
  }
}

/** The first `count` steps of a random walk (answers picked among available options): timing. */
function sample(model: CompiledModel, count: number, label: string): void {
  timings.length = 0;
  const answers: Answers = {};
  for (const question of shuffle([...model.questions]).slice(0, count)) {
    const line = evaluate(model, answers).line;
    const available = (line.questions[question.index].options ?? []).filter((o) => o.available);
    if (available.length > 0)
      answers[question.key] = {
        values: [available[Math.floor(random() * available.length)].key],
      };
  }
  console.log(
    `  ${label}: median ${ms(percentile(timings, 0.5))}, p99 ${ms(percentile(timings, 0.99))} over ${timings.length}`,
  );
}

/** The walks' answer sets again, alternately with the diagram and without it (propagation). */
function compareSameRun(document: unknown, model: CompiledModel, answerSets: Answers[]): void {
  const fallback = engine.compileDocument(document, { consistencyMs: 0 });
  if (!fallback.ok) throw new Error('model rejected without the diagram');
  const [exact, local] = timeClicks(
    [
      { build: engine, model },
      { build: engine, model: fallback.model },
    ],
    answerSets,
  );
  console.log(
    `  same run, ${answerSets.length} answer sets alternately: exact ${ms(exact.median)}, ` +
      `without the diagram (propagation) ${ms(local.median)} (ratio ${(exact.median / local.median).toFixed(2)})`,
  );
}

/**
 * Issue #28's click goals beyond the real cars: a generated model shaped like
 * renault-megane at 10× its size (wide tables), and the crafted single-table model (8
 * questions × 50 options, one table of 5,000 rows). Figures, clicks med/p99/max and the
 * explained share (EXTRA=wide,crafted; WIDE_WALKS, CRAFTED_WALKS).
 */
function benchExtra(): void {
  const wanted = (process.env.EXTRA ?? 'wide,crafted').split(',');
  if (wanted.includes('wide')) {
    const document = generateWideTableModel(10, 450_000, 11);
    const counts = document as {
      questions: unknown[];
      rules: Array<{ allowed: { rows: unknown[] } }>;
    };
    const rows = counts.rules.reduce((sum, rule) => sum + rule.allowed.rows.length, 0);
    console.log(
      `generated wide-table model, 10× renault-megane: ${counts.questions.length} questions, ` +
        `${counts.rules.length} tables, ${rows} rows`,
    );
    compileTimed(document, {}, (model) =>
      recording(() => {
        failures += walks(model, Number(process.env.WIDE_WALKS ?? 1), 'random walks (exact)');
      }),
    );
  }
  if (wanted.includes('crafted')) {
    console.log(
      'crafted single-table model: 8 choice questions × 50 options, one table of 5,000 rows',
    );
    const document = generateSingleTableModel(5_000, 28);
    compileTimed(document, {}, (model) =>
      recording(() => {
        failures += walks(model, Number(process.env.CRAFTED_WALKS ?? 40), 'random walks (exact)');
      }),
    );
  }
}

function benchGenerated(): void {
  console.log('generated table models (questions × options, tables, rows in all)');
  const sizes = [
    { questions: 50, options: 6, rows: 200 },
    { questions: 100, options: 8, rows: 2_000 },
    { questions: 200, options: 10, rows: 20_000 },
    { questions: 400, options: 10, rows: 60_000 },
    { questions: 800, options: 10, rows: 120_000 },
  ];
  // Walks evaluate once per question: up to 200 questions; larger models are sampled.
  const walkCount = Number(process.env.GENERATED_WALKS ?? 2);
  const samples = Number(process.env.GENERATED_STEPS ?? 20);
  for (const size of sizes) {
    const document = generateTableModel(size.questions, size.options, size.rows, 7);
    console.log(`${size.questions} questions, ${size.options} options, ${size.rows} table rows`);
    compileTimed(document, {}, (model) =>
      recording(() => {
        if (size.questions <= 200) failures += walks(model, walkCount, 'random walks (exact)');
        else sample(model, samples, 'first steps of a random walk (exact)');
      }),
    );
  }
  for (const size of sizes.slice(3)) {
    console.log(`budget fallback: ${size.questions} questions with a 4 MB budget (propagation)`);
    const document = generateTableModel(size.questions, size.options, size.rows, 7);
    // A byte budget only: the propagation form then gets the default time.
    const { model } = compileTimed(document, { consistencyBytes: 4 * 1024 * 1024 });
    const line = evaluate(model, {}).line;
    const { configurations_at_most: bound, ...rest } = line.consistency;
    console.log(
      `  line consistency ${JSON.stringify(rest)}, configurations at most ${digits(bound ?? '?')}`,
    );
    sample(model, samples, 'first steps of a random walk (propagation)');
  }
}

/** `--baseline <path>` and the positional arguments. */
function parseArguments(argv: readonly string[]): { baseline?: string; positional: string[] } {
  const positional: string[] = [];
  let baseline: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--baseline') baseline = argv[++i];
    else if (argv[i].startsWith('--baseline=')) baseline = argv[i].slice('--baseline='.length);
    else positional.push(argv[i]);
  }
  return { baseline, positional };
}

const options = parseArguments(process.argv.slice(2));
const baselinePath = options.baseline ?? process.env.BASE_ENGINE;
const base: Engine | undefined =
  baselinePath === undefined ? undefined : await loadEngine(baselinePath);
if (baselinePath !== undefined) console.log(`baseline: ${resolve(baselinePath)}`);

const [modelPath, salesPath] = options.positional;
if (modelPath !== undefined) benchModel(modelPath, salesPath);
else {
  const folder = resolve(process.env.BENCHMARKS ?? '../shared/benchmarks');
  const wanted = (process.env.MODELS ?? 'medium,megane').split(',');
  for (const name of wanted) {
    const dir = `${folder}/renault-${name}`;
    if (!existsSync(`${dir}/model.json`)) {
      console.log(`(${dir}/model.json not found: skipped)`);
      continue;
    }
    benchModel(
      `${dir}/model.json`,
      existsSync(`${dir}/sales.txt`) ? `${dir}/sales.txt` : undefined,
    );
  }
}
if (process.env.FEATURE_MODELS !== undefined && process.env.FEATURE_MODELS !== '') {
  const steps = Number(process.env.FEATURE_STEPS ?? 40);
  for (const featureModel of await loadFeatureModels(process.env.FEATURE_MODELS.split(','))) {
    console.log(`feature model ${featureModel.label}`);
    const limits = JSON.parse(process.env.LIMITS ?? '{}') as Record<string, number>;
    const { model } = compileTimed(featureModel.document, limits, (compiled) =>
      recording(() => sample(compiled, steps, `first ${steps} steps of a random walk`)),
    );
    const counted = model.consistency.analysis.configurations;
    if (featureModel.expected !== undefined && counted !== null) {
      const same = counted === String(featureModel.expected);
      console.log(`  count ${same ? 'equals' : 'DIFFERS FROM'} the independent count`);
      if (!same) failures++;
    }
  }
}
if (process.env.EXTRA !== '') benchExtra();
if (process.env.SKIP_GENERATED !== '1') benchGenerated();
if (failures > 0) {
  console.log(`FAILED: ${failures} walks or sold options broke the no-dead-ends guarantee`);
  process.exitCode = 1;
}
