/**
 * Consistency benchmark (not a test): `npm run bench:consistency -- <model.json> [sales.txt]`.
 *
 * For a model: compile time and diagram size, the configuration count, the compiled
 * form's bytes and heap, evaluation median / p99 with exact availability and
 * explanations, random walks over available options (every walk must end valid) and,
 * with a sales file, a replay of sold configurations in random order (no option a
 * sold car used may ever be reported unavailable). Then generated table models of
 * growing size (compile growth, counts past 2^53) and the budget fallback.
 * Exits non-zero when a random walk over the model dead-ends or ends invalid, or a
 * sold option is reported unavailable (CI runs it on renault-medium when ../shared
 * is there). Past the budget (propagation) walks are reported, never failed: the
 * fallback is sound, not complete.
 * Env: WALKS (default 30), SALES_LIMIT (cars replayed, default 400), FALLBACK_WALKS
 * (walks with the model compiled past the budget, default 10; 0 skips),
 * SKIP_GENERATED=1, SEED.
 *
 * Same-run comparison (the model given): the answer sets of the random walks evaluated
 * again, alternately with the diagram (exact consistency) and without it (the same
 * model compiled with a zero consistency budget: propagation), and with BASE_ENGINE
 * (another engine build's index.js, e.g. c628b5b's local check, see engine.bench.ts)
 * when set; medians and ratios.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as engine from '../src/engine/index.js';
import {
  compileModel,
  type CompiledModel,
  evaluateConfiguration,
  serializeConsistency,
} from '../src/engine/index.js';
import { generateTableModel } from './generate-table-model.js';

type Answers = Record<string, { values: unknown[] }>;

let seed = Number(process.env.SEED ?? 42) >>> 0;
function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const timings: number[] = [];
/** The answer sets evaluated while recording (for the same-run comparison). */
let recorded: Answers[] | undefined;
function evaluate(model: CompiledModel, answers: Answers) {
  recorded?.push({ ...answers });
  const started = performance.now();
  const result = evaluateConfiguration(model, { modelId: 1, versionNumber: 1, questions: answers });
  timings.push(performance.now() - started);
  return result;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}
const ms = (value: number): string => `${value.toFixed(2)} ms`;
/** A count as it is, or its first digits and length past 2^53 (16 digits). */
const digits = (count: string): string =>
  count.length <= 16 ? count : `${count.slice(0, 4)}… (${count.length} digits, past 2^53)`;

function compileTimed(document: unknown, limits = {}): { model: CompiledModel; totalMs: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const result = compileModel(document, limits);
  const totalMs = performance.now() - started;
  if (!result.ok) throw new Error(`model rejected: ${JSON.stringify(result.problems.slice(0, 3))}`);
  gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  const { analysis } = result.model.consistency;
  const bytes = serializeConsistency(result.model.consistency).byteLength;
  console.log(
    `  compile ${totalMs.toFixed(0)} ms (consistency ${analysis.compile_ms} ms), exact ${analysis.exact}` +
      `${analysis.reason ? ` (${analysis.reason})` : ''}, ${analysis.size.nodes} nodes / ` +
      `${analysis.size.edges} edges, stored form ${(bytes / 1024).toFixed(1)} KB, ` +
      `model heap ${gc ? `${heapMb.toFixed(1)} MB` : 'n/a (run with --expose-gc)'}`,
  );
  console.log(
    `  configurations ${analysis.configurations === null ? `null (at most ${digits(analysis.configurations_at_most ?? '?')})` : digits(analysis.configurations)}, dead options ${analysis.dead_options.length}`,
  );
  return { model: result.model, totalMs };
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
  for (let w = 0; w < count; w++) {
    const walk = randomWalk(model);
    if (walk.valid) ended++;
    if (walk.deadEnd !== undefined) deadEnds.push(walk.deadEnd);
  }
  console.log(
    `  ${label}: ${ended}/${count} ended valid, ${deadEnds.length} dead ends` +
      `${deadEnds.length > 0 ? ` (at ${deadEnds.join(', ')})` : ''}; evaluation median ` +
      `${ms(percentile(timings, 0.5))}, p99 ${ms(percentile(timings, 0.99))} over ${timings.length}`,
  );
  return count - ended;
}

/** The guarantee failed (a dead end, an invalid walk, a sold option unavailable). */
let failures = 0;

function benchModel(path: string, salesPath: string | undefined): void {
  console.log(`model ${path}`);
  const document: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const { model } = compileTimed(document);
  recorded = [];
  failures += walks(model, Number(process.env.WALKS ?? 30), 'random walks (exact availability)');
  const answerSets = recorded;
  recorded = undefined;
  compareSameRun(document, model, answerSets);
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

type Engine = Pick<typeof engine, 'compileModel' | 'evaluateConfiguration'>;
const BASE_PATH = process.env.BASE_ENGINE;
const base: Engine | undefined =
  BASE_PATH === undefined ? undefined : ((await import(resolve(BASE_PATH))) as Engine);

/** The walks' answer sets again: with the diagram, without (fallback), and the base engine. */
function compareSameRun(document: unknown, model: CompiledModel, answerSets: Answers[]): void {
  const fallback = compileModel(document, { consistencyMs: 0 });
  if (!fallback.ok) throw new Error('model rejected without the diagram');
  const theirs = base?.compileModel(document);
  if (theirs !== undefined && !theirs.ok) throw new Error('the base engine rejected the model');
  const exact: number[] = [];
  const local: number[] = [];
  const before: number[] = [];
  const time = (run: () => unknown, into: number[]): void => {
    const started = performance.now();
    run();
    into.push(performance.now() - started);
  };
  for (const questions of answerSets) {
    const request = { modelId: 1, versionNumber: 1, questions };
    time(() => evaluateConfiguration(model, request), exact);
    time(() => evaluateConfiguration(fallback.model, request), local);
    if (base !== undefined && theirs?.ok === true)
      time(() => base.evaluateConfiguration(theirs.model, request), before);
  }
  const median = (values: number[]): number => percentile(values, 0.5);
  console.log(
    `  same run, ${answerSets.length} answer sets alternately: exact ${ms(median(exact))}, ` +
      `without the diagram (propagation) ${ms(median(local))} (ratio ${(median(exact) / median(local)).toFixed(2)})` +
      (before.length > 0
        ? `, base engine ${ms(median(before))} (ratio ${(median(exact) / median(before)).toFixed(2)})`
        : ''),
  );
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
    const { model } = compileTimed(document);
    if (size.questions <= 200) failures += walks(model, walkCount, 'random walks (exact)');
    else sample(model, samples, 'first steps of a random walk (exact)');
  }
  for (const size of sizes.slice(3)) {
    console.log(`budget fallback: ${size.questions} questions with a 4 MB budget (propagation)`);
    const document = generateTableModel(size.questions, size.options, size.rows, 7);
    // A byte budget only: the propagation form then gets the default time.
    const { model } = compileTimed(document, { consistencyBytes: 4 * 1024 * 1024 });
    const line = evaluate(model, {}).line;
    const { configurations, ...rest } = line.consistency;
    console.log(
      `  line consistency ${JSON.stringify(rest)}, configurations (upper bound) ${digits(configurations)}`,
    );
    sample(model, samples, 'first steps of a random walk (propagation)');
  }
}

const [modelPath, salesPath] = process.argv.slice(2);
if (modelPath !== undefined) benchModel(modelPath, salesPath);
if (process.env.SKIP_GENERATED !== '1') benchGenerated();
if (failures > 0) {
  console.log(`FAILED: ${failures} walks or sold options broke the no-dead-ends guarantee`);
  process.exitCode = 1;
}
