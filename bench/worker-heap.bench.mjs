/**
 * An evaluation worker's heap, in this process (not a test): what a version costs once its
 * worker holds it, adopted (an upload's transferable form, revived) or loaded (the stored
 * definition compiled again), and the garbage collection of a walk of compact clicks on it.
 * The worker's own code (EngineTasks, as engine.worker.ts runs it) from `--root`'s dist/.
 *
 *   node --expose-gc bench/worker-heap.bench.mjs <model.json> [--root <checkout>]
 *     [--clicks 400] [--load]
 *
 * Prints the heap a version adds after two full GCs, the heap after the walk, and the walk's
 * collections as perf_hooks reports them (minor: scavenges; major: mark-compacts, whose
 * incremental marking steps are not counted) and their ms per click.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const modelPath = argv.find((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (modelPath === undefined || typeof globalThis.gc !== 'function')
  throw new Error('usage: node --expose-gc bench/worker-heap.bench.mjs <model.json>');
const root = resolve(option('root', '.'));
const clicks = Number(option('clicks', 400));
const tasksDir = `${root}/dist/src/engine-runtime/tasks`;
const { EngineTasks } = await import(`${tasksDir}/engine-tasks.js`);
const { runBuild } = await import(`${tasksDir}/build-model.js`);

const settings = {
  cacheEntries: 8,
  cacheBytes: 1024 * 1048576,
  assetUrls: { key: new Uint8Array(32), ttlSeconds: 3600 },
};
const version = { key: '1:1', modelId: 1, versionNumber: 1 };
const bytes = new TextEncoder().encode(readFileSync(modelPath, 'utf8'));
const built = await runBuild({ kind: 'build', bytes, format: 'json', limits: {} });
if (built.kind !== 'built') throw new Error(`the model does not build: ${built.kind}`);
const usedHeap = () => {
  globalThis.gc();
  globalThis.gc();
  return getHeapStatistics().used_heap_size;
};
const mb = (n) => (n / 1048576).toFixed(1);

let seed = 42;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const pick = (items) => items[Math.floor(random() * items.length)];
const evaluate = async (tasks, questions, view) =>
  (
    await tasks.run({
      kind: 'evaluate',
      version,
      companyId: 1,
      questions,
      languageCode: null,
      view,
    })
  ).value;
const hold = (tasks) =>
  argv.includes('--load')
    ? tasks.run({
        kind: 'load',
        version,
        definition: built.definition,
        consistency: built.consistency,
        limits: {},
      })
    : tasks.run({ kind: 'adopt', version, compiled: built.compiled.slice() });

/** Random walks over available options (full view), as JSON answer texts. */
async function walk() {
  const tasks = new EngineTasks(settings);
  await hold(tasks);
  const answerSets = [];
  let answers = {};
  while (answerSets.length < clicks) {
    const sent = await evaluate(tasks, JSON.stringify(answers), 'full');
    const line = JSON.parse(new TextDecoder().decode(sent.line));
    const open = line.questions.filter(
      (q) => q.visible && q.values.length === 0 && (q.options ?? []).some((o) => o.available),
    );
    if (open.length === 0) {
      answers = {};
      continue;
    }
    const question = pick(open);
    const keys = question.options.filter((o) => o.available).map((o) => o.key);
    answers = { ...answers, [question.key]: { values: [pick(keys)] } };
    answerSets.push(JSON.stringify(answers));
  }
  return answerSets;
}

const answerSets = await walk();
const before = usedHeap();
const tasks = new EngineTasks(settings);
await hold(tasks);
const held = usedHeap();
const collections = { minor: [0, 0], major: [0, 0] };
const count = (entries) => {
  for (const entry of entries) {
    const kind = entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'minor';
    collections[kind][0] += 1;
    collections[kind][1] += entry.duration;
  }
};
const observer = new PerformanceObserver((list) => count(list.getEntries()));
observer.observe({ entryTypes: ['gc'] });
const started = performance.now();
for (const questions of answerSets) await evaluate(tasks, questions, 'compact');
const elapsed = performance.now() - started;
await new Promise((done) => setTimeout(done, 100));
count(observer.takeRecords());
observer.disconnect();
const after = usedHeap();
const how = argv.includes('--load') ? 'loaded' : 'adopted';
console.log(
  `${modelPath} ${how}: +${mb(held - before)} MB of heap after GC; ${clicks} compact clicks ` +
    `${(elapsed / clicks).toFixed(2)} ms each, heap after them +${mb(after - before)} MB; ` +
    Object.entries(collections)
      .map(([kind, [n, ms]]) => `${n} ${kind} GCs ${(ms / clicks).toFixed(2)} ms/click`)
      .join(', '),
);
