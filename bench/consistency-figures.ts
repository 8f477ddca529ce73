/**
 * The figures of the consistency benchmark for one engine build, and the table that puts
 * this build's beside a baseline build's (`--baseline`), both measured in the same run.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type * as engine from '../src/engine/work.js';

/**
 * What the benchmark needs of an engine build. engineOf adapts a build's entry points:
 * this one's (all in work.js), an older build's stages in index.js and serializeConsistency
 * in runtime.js, or an older one's (compileModel(document), evaluateConfiguration, all in
 * index.js).
 */
export interface Engine {
  compileDocument: typeof engine.compileDocument;
  evaluate: typeof engine.evaluate;
  serializeConsistency: typeof engine.serializeConsistency;
}
export type Answers = Record<string, { values: unknown[] }>;
type Compiled = Extract<ReturnType<Engine['compileDocument']>, { ok: true }>['model'];

export interface CompileFigures {
  model: Compiled;
  compileMs: number;
  /** CPU time of the compile (user + system): what the machine's load does not inflate. */
  cpuMs: number;
  consistencyMs: number;
  exact: boolean;
  reason?: string;
  nodes: number;
  edges: number;
  storedBytes: number;
  heapMb: number | undefined;
  /** The exact count, or `null (at most …)`. */
  count: string;
  deadOptions: number;
}

/** An engine build: a checkout (its dist-bench) or an index.js (its work.js when it has one). */
export async function loadEngine(path: string): Promise<Engine> {
  const file = resolve(path.endsWith('.js') ? path : `${path}/dist-bench/src/engine/index.js`);
  const work = join(dirname(file), 'work.js');
  const index = (await import(existsSync(work) ? work : file)) as Record<string, unknown>;
  const runtimeFile = join(dirname(file), 'runtime.js');
  const plumbing = existsSync(runtimeFile)
    ? ((await import(runtimeFile)) as Record<string, unknown>)
    : {};
  return engineOf(index, plumbing);
}

/** A build's entry points under the names of this one (see Engine). */
export function engineOf(
  index: Record<string, unknown>,
  plumbing: Record<string, unknown> = {},
): Engine {
  return {
    compileDocument: (index.compileDocument ?? index.compileModel) as Engine['compileDocument'],
    evaluate: (index.evaluate ?? index.evaluateConfiguration) as Engine['evaluate'],
    serializeConsistency: (plumbing.serializeConsistency ??
      index.serializeConsistency) as Engine['serializeConsistency'],
  };
}

/** A count as it is, or its first digits and length past 2^53 (16 digits). */
export const digits = (count: string): string =>
  count.length <= 16 ? count : `${count.slice(0, 4)}… (${count.length} digits)`;

export function compileFigures(
  build: Engine,
  document: unknown,
  limits: Record<string, number> = {},
): CompileFigures {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = build.compileDocument(document, limits);
  const compileMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  if (!result.ok) throw new Error(`model rejected: ${JSON.stringify(result.problems.slice(0, 3))}`);
  gc?.();
  const heapMb = gc ? (process.memoryUsage().heapUsed - heapBefore) / 1e6 : undefined;
  // Older builds reported a bound as `configurations` (no configurations_at_most).
  const analysis = result.model.consistency.analysis as {
    exact: boolean;
    reason?: string;
    configurations: string | null;
    configurations_at_most?: string;
    dead_options: string[];
    compile_ms: number;
    size: { nodes: number; edges: number };
  };
  const count =
    analysis.exact && analysis.configurations !== null
      ? digits(analysis.configurations)
      : `null (at most ${digits(analysis.configurations_at_most ?? analysis.configurations ?? '?')})`;
  return {
    model: result.model,
    compileMs,
    cpuMs,
    consistencyMs: analysis.compile_ms,
    exact: analysis.exact,
    reason: analysis.reason,
    nodes: analysis.size.nodes,
    edges: analysis.size.edges,
    storedBytes: build.serializeConsistency(result.model.consistency).byteLength,
    heapMb,
    count,
    deadOptions: analysis.dead_options.length,
  };
}

export interface ClickFigures {
  median: number;
  p99: number;
  max: number;
  count: number;
  /** The same of the process's CPU time per click: what other processes' load does not inflate. */
  cpu?: ClickFigures;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

export function clickFigures(timings: readonly number[], cpu?: readonly number[]): ClickFigures {
  return {
    median: percentile(timings, 0.5),
    p99: percentile(timings, 0.99),
    max: Math.max(...timings),
    count: timings.length,
    ...(cpu === undefined ? {} : { cpu: clickFigures(cpu) }),
  };
}

/** The answer sets evaluated alternately by each build (same run, same load). */
export function timeClicks(
  builds: ReadonlyArray<{ build: Engine; model: Compiled }>,
  answerSets: readonly Answers[],
): ClickFigures[] {
  const timings = builds.map((): number[] => []);
  const cpu = builds.map((): number[] => []);
  for (const questions of answerSets) {
    const request = { modelId: 1, versionNumber: 1, questions };
    builds.forEach(({ build, model }, i) => {
      const used = process.cpuUsage();
      const started = performance.now();
      build.evaluate(model, request);
      timings[i].push(performance.now() - started);
      const spent = process.cpuUsage(used);
      cpu[i].push((spent.user + spent.system) / 1000);
    });
  }
  return timings.map((list, i) => clickFigures(list, cpu[i]));
}

const ms = (value: number): string =>
  value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`;

/** Rows of figures: this build's, and the baseline's beside them when there is one. */
export function printFigures(
  mine: CompileFigures,
  clicks: ClickFigures[],
  theirs: CompileFigures | undefined,
): void {
  const rows: Array<[string, (f: CompileFigures) => string]> = [
    ['compile', (f) => ms(f.compileMs)],
    ['  CPU time', (f) => ms(f.cpuMs)],
    ['  of it consistency', (f) => ms(f.consistencyMs)],
    ['exact', (f) => (f.exact ? 'yes' : `no (${(f.reason ?? '').slice(0, 24)}…)`)],
    ['nodes / edges', (f) => `${f.nodes} / ${f.edges}`],
    ['stored form', (f) => `${(f.storedBytes / 1024).toFixed(1)} KB`],
    ['model heap', (f) => (f.heapMb === undefined ? 'n/a' : `${f.heapMb.toFixed(1)} MB`)],
    ['configurations', (f) => f.count],
    ['dead options', (f) => String(f.deadOptions)],
  ];
  const line = (label: string, a: string, b?: string): void =>
    console.log(`  ${label.padEnd(30)}${a.padEnd(31)} ${b ?? ''}`);
  line('', 'this build', theirs === undefined ? undefined : 'baseline');
  for (const [label, show] of rows)
    line(label, show(mine), theirs === undefined ? undefined : show(theirs));
  const click = (c: ClickFigures | undefined): string | undefined =>
    c === undefined || c.count === 0 ? undefined : `${ms(c.median)} / ${ms(c.p99)} / ${ms(c.max)}`;
  line(
    `clicks (${clicks[0]?.count ?? 0}): med, p99, max`,
    click(clicks[0]) ?? '-',
    theirs === undefined ? undefined : click(clicks[1]),
  );
  line(
    '  their CPU time',
    click(clicks[0]?.cpu) ?? '-',
    theirs === undefined ? undefined : click(clicks[1]?.cpu),
  );
}
