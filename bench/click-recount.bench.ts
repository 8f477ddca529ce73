/**
 * A buyer's clicks timed on two engine builds in the same process (not a test):
 * `npm run bench:click-recount -- <model.json | feature model .dimacs> --baseline <other
 * checkout's dist-bench/src/engine/work.js>`.
 *
 * One compile of this build makes the sequence: random walks over available values where
 * about one step in four is a forced pick (an unavailable value resolved to the nearest
 * configuration: several answers moved at once) instead of one more answer. Then each
 * build compiles the document afresh and evaluates the sequence in order, step by step
 * alternately (which build goes first alternates too): every answer set is new to its
 * model, so a click reuses only what the previous one left. Prints per build and kind
 * (walk click, pick) the median / p99 / max of the evaluation's CPU time.
 * Env: STEPS (default 300), SEED, LIMITS (JSON engine limits, e.g. `{"consistencyMs":300000}`),
 * SEQUENCE (a file: the sequence is read from it, or made and written there when absent),
 * WALK (steps per walk, 40; 0: to the walk's end, as bench:http's clicks), PICKS (the share
 * of steps that are forced picks, 0.25), VIEW (compact; full as the pages asked before ADR
 * 0224) and PRICE_BOUNDS=1 (the price bounds a preview computes).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveAnswers } from '../src/engine/evaluate/resolution.js';
import * as engine from '../src/engine/work.js';
import type { CompiledModel } from '../src/engine/work.js';
import { prng } from '../test/support/prng.js';
import { percentile } from './consistency-figures.js';
import { loadFeatureModels } from './feature-models.js';

type Answers = Record<string, { values: unknown[] }>;
type Build = Pick<typeof engine, 'compileDocument' | 'evaluate'>;
interface Step {
  readonly kind: 'click' | 'pick';
  readonly answers: Answers;
}

const random = prng(Number(process.env.SEED ?? 42));
const STEPS = Number(process.env.STEPS ?? 300);
const SEQUENCE = process.env.SEQUENCE;
const LIMITS = JSON.parse(process.env.LIMITS ?? '{}') as Record<string, number>;
const WALK = Number(process.env.WALK ?? 40) || Infinity;
const PICKS = Number(process.env.PICKS ?? 0.25);
const VIEW = process.env.VIEW === 'full' ? ('full' as const) : ('compact' as const);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const request = (questions: Answers, extra: Record<string, unknown> = {}) => ({
  modelId: 1,
  versionNumber: 1,
  questions,
  view: 'compact' as const,
  priceBounds: false,
  ...extra,
});

function compiled(build: Build, document: unknown): CompiledModel {
  const result = build.compileDocument(document, LIMITS);
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
  return result.model as CompiledModel;
}

/** Walks of up to WALK steps; a step answers one open question or forces a blocked value. */
function sequence(model: CompiledModel): Step[] {
  const steps: Step[] = [];
  while (steps.length < STEPS) {
    let answers: Answers = {};
    for (let n = 0; n < WALK && steps.length < STEPS; n++) {
      const line = engine.evaluate(model, request(answers)).line;
      const blocked = line.questions.filter(
        (q) => (q.options ?? []).length > 0 || (q.unavailable_values ?? []).length > 0,
      );
      if (n > 0 && blocked.length > 0 && random() < PICKS) {
        const question = pick(blocked);
        const value = pick([
          ...(question.options ?? []).map((option) => option.key),
          ...(question.unavailable_values ?? []),
        ]);
        const resolve = { question: question.key, value };
        const asking = request(answers, { resolve }) as Parameters<typeof resolveAnswers>[1];
        const resolved = resolveAnswers(model, asking, resolve);
        answers = resolved.answers as Answers;
        steps.push({ kind: 'pick', answers });
        continue;
      }
      const open = line.questions.filter((q) => q.visible && q.values.length === 0);
      const choices = open.flatMap((q) => {
        const spec = model.questions[model.questionIndex.get(q.key) as number];
        const blockedKeys = new Set((q.options ?? []).map((option) => option.key));
        const values: unknown[] =
          spec.type === 'boolean'
            ? [true, false].filter((v) => !(q.unavailable_values ?? []).includes(v))
            : spec.options.map((option) => option.key).filter((key) => !blockedKeys.has(key));
        return values.length === 0 ? [] : [{ key: q.key, values }];
      });
      if (choices.length === 0) break;
      const choice = pick(choices);
      answers = { ...answers, [choice.key]: { values: [pick(choice.values)] } };
      steps.push({ kind: 'click', answers });
    }
  }
  return steps;
}

const figures = (times: number[]): string =>
  times.length === 0
    ? 'none'
    : `median ${percentile(times, 0.5).toFixed(2)} / p99 ${percentile(times, 0.99).toFixed(2)} / ` +
      `max ${Math.max(...times).toFixed(2)} ms (${times.length})`;

const argv = process.argv.slice(2);
const at = argv.indexOf('--baseline');
const baselinePath = at >= 0 ? argv[at + 1] : undefined;
const path = argv.find((arg, i) => !arg.startsWith('--') && (at < 0 || i !== at + 1));
if (path === undefined || baselinePath === undefined)
  throw new Error('usage: <model> --baseline <work.js>');
const base = (await import(resolve(baselinePath))) as Build;
const document = path.endsWith('.dimacs')
  ? (await loadFeatureModels([path]))[0].document
  : (JSON.parse(readFileSync(path, 'utf8')) as unknown);
const steps: Step[] =
  SEQUENCE !== undefined && existsSync(SEQUENCE)
    ? (JSON.parse(readFileSync(SEQUENCE, 'utf8')) as Step[])
    : sequence(compiled(engine, document));
if (SEQUENCE !== undefined && !existsSync(SEQUENCE)) writeFileSync(SEQUENCE, JSON.stringify(steps));
const builds = [
  { name: 'this build', build: engine as Build },
  { name: 'baseline', build: base },
].map((entry) => ({ ...entry, model: compiled(entry.build, document) }));
for (const { build, model } of builds) build.evaluate(model, request({}));
const cpu = builds.map(() => ({ click: [] as number[], pick: [] as number[] }));
steps.forEach((step, n) => {
  for (const i of n % 2 === 0 ? [0, 1] : [1, 0]) {
    const started = process.cpuUsage();
    builds[i].build.evaluate(builds[i].model, {
      ...request(step.answers),
      view: VIEW,
      priceBounds: process.env.PRICE_BOUNDS === '1',
    });
    const used = process.cpuUsage(started);
    cpu[i][step.kind].push((used.user + used.system) / 1000);
  }
});
console.log(`${path}: ${steps.length} steps, CPU per evaluation`);
builds.forEach(({ name }, i) => {
  console.log(`  ${name.padEnd(11)} walk clicks ${figures(cpu[i].click)}`);
  console.log(`  ${''.padEnd(11)} picks       ${figures(cpu[i].pick)}`);
});
