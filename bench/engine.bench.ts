/**
 * Engine benchmark (not a test): compile time, evaluation median / p99 and the heap a
 * compiled model holds, for generated models of 100, 1,000 and 5,000 questions.
 * Run with `npm run bench` (builds with tsconfig.bench.json, runs with --expose-gc).
 *
 * Same-run comparison with another engine build: `BASE_ENGINE=<its index.js> npm run bench`
 * (its work.js beside it is loaded when there is one)
 * (e.g. the engine before the consistency work: `git worktree add /tmp/base c628b5b`,
 * `npx tsc -p tsconfig.bench.json` there, BASE_ENGINE=/tmp/base/dist-bench/src/engine/index.js).
 * Both engines compile the same model and evaluate the same answers alternately, so
 * machine load hits both alike; the table gets both medians and their ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as engine from '../src/engine/work.js';
import { compileDocument, type CompiledModel } from '../src/engine/work.js';
import { loadEngine } from './consistency-figures.js';
import { runGenerator } from './run-generator.js';

const SIZES = [100, 1000, 5000];
const WARM_UP = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 500);
/** The 5,000-question model gets fewer runs: the machine is shared and the median is stable by then. */
const runsFor = (questions: number): number => (questions >= 5000 ? Math.min(RUNS, 200) : RUNS);
/** The repository's generator; GEN_MODEL names another one (same arguments). */
const GENERATOR = resolve(process.env.GEN_MODEL ?? 'tools/gen-model.mjs');

/** The engine to compare with (BASE_ENGINE), same entry points. */
type Engine = Pick<typeof engine, 'compileDocument' | 'evaluate'>;
const BASE_PATH = process.env.BASE_ENGINE;
/** An older build's names are adapted (compileModel(document), evaluateConfiguration). */
const base: Engine | undefined =
  BASE_PATH === undefined ? undefined : await loadEngine(resolve(BASE_PATH));

interface Comparison {
  baseMedianMs: number;
  medianMs: number;
}

interface Row {
  questions: number;
  compileMs: number;
  medianMs: number;
  p99Ms: number;
  /** Median of an empty configuration (every question unanswered: null operands everywhere). */
  emptyMedianMs: number;
  heapMb: number | undefined;
  runs: number;
  valid: boolean;
  comparison: Comparison | undefined;
}

function compileOrThrow(document: unknown): CompiledModel {
  const result = compileDocument(document);
  if (!result.ok)
    throw new Error(`generated model rejected: ${JSON.stringify(result.problems.slice(0, 3))}`);
  return result.model;
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapHeldBy(document: unknown): { model: CompiledModel; heapMb: number | undefined } {
  if (gc === undefined) return { model: compileOrThrow(document), heapMb: undefined };
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const model = compileOrThrow(document);
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  return { model, heapMb: (after - before) / 1024 / 1024 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function bench(questions: number, dir: string): Row {
  const { document, answers } = runGenerator(GENERATOR, questions, dir);
  const compileTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    compileOrThrow(document);
    compileTimes.push(performance.now() - started);
  }
  const { model, heapMb } = heapHeldBy(document);
  const request = { modelId: 1, versionNumber: 1, questions: answers };
  let valid = true;
  for (let i = 0; i < WARM_UP; i++) valid = engine.evaluate(model, request).valid && valid;
  const times: number[] = [];
  const runs = runsFor(questions);
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    engine.evaluate(model, request);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  compileTimes.sort((a, b) => a - b);
  const empty = { modelId: 1, versionNumber: 1, questions: {} };
  for (let i = 0; i < WARM_UP; i++) engine.evaluate(model, empty);
  const emptyTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    engine.evaluate(model, empty);
    emptyTimes.push(performance.now() - started);
  }
  emptyTimes.sort((a, b) => a - b);
  const comparison = base === undefined ? undefined : compare(base, document, request, runs);
  return {
    questions,
    compileMs: compileTimes[1],
    medianMs: percentile(times, 0.5),
    p99Ms: percentile(times, 0.99),
    emptyMedianMs: percentile(emptyTimes, 0.5),
    heapMb,
    runs,
    valid,
    comparison,
  };
}

/** This engine and the base one on the same model and answers, evaluated alternately. */
function compare(
  other: Engine,
  document: unknown,
  request: Parameters<typeof engine.evaluate>[1],
  runs: number,
): Comparison {
  const mine = compileOrThrow(document);
  const theirs = other.compileDocument(document);
  if (!theirs.ok) throw new Error('the base engine rejected the generated model');
  const baseTimes: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + runs; i++) {
    let started = performance.now();
    other.evaluate(theirs.model, request);
    const baseMs = performance.now() - started;
    started = performance.now();
    engine.evaluate(mine, request);
    const ms = performance.now() - started;
    if (i < WARM_UP) continue;
    baseTimes.push(baseMs);
    times.push(ms);
  }
  baseTimes.sort((a, b) => a - b);
  times.sort((a, b) => a - b);
  return { baseMedianMs: percentile(baseTimes, 0.5), medianMs: percentile(times, 0.5) };
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'engine-bench-'));
  console.log(
    `engine benchmark: generator ${GENERATOR}; evaluations after ${WARM_UP} warm-up; node ${process.version}`,
  );
  if (gc === undefined)
    console.log('(run with --expose-gc to measure the heap a compiled model holds)');
  const rows: Row[] = [];
  try {
    for (const size of SIZES) rows.push(bench(size, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.table(
    rows.map((row) => ({
      questions: row.questions,
      'compile ms (median of 3)': row.compileMs.toFixed(1),
      'evaluate median ms': row.medianMs.toFixed(3),
      'evaluate p99 ms': row.p99Ms.toFixed(3),
      'empty configuration median ms': row.emptyMedianMs.toFixed(3),
      'model heap MB': row.heapMb === undefined ? 'n/a' : row.heapMb.toFixed(1),
      runs: row.runs,
      valid: row.valid,
    })),
  );
  if (base !== undefined) {
    console.log(`same-run comparison with ${BASE_PATH} (alternate evaluations, medians):`);
    console.table(
      rows.map((row) => ({
        questions: row.questions,
        'base ms': row.comparison?.baseMedianMs.toFixed(3),
        'this engine ms': row.comparison?.medianMs.toFixed(3),
        ratio: row.comparison
          ? (row.comparison.medianMs / row.comparison.baseMedianMs).toFixed(3)
          : 'n/a',
      })),
    );
  }
}

main();
