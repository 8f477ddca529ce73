/**
 * The floors of `npm run bench:http` as the benchmark starts them (bench/http-floor.mjs is
 * the server), the check that a floor answers what the service does, and the engine
 * alone in this process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { BENCH_SERVICE_ENV, call, engineEntry, startChild } from './service-fixture.mjs';
import { median, tables } from './http-measure.mjs';
import { here, root } from './http-options.mjs';

/** What the benchmark removes at its end (directories, databases), last first. */
export const cleanups = [];

export const JWT = {
  jwtSecret: BENCH_SERVICE_ENV.JWT_SECRET,
  jwtIssuer: 'configurator',
  jwtAudience: 'configurator-api',
};

export async function startFloor(config) {
  const floor = await startChild(
    root,
    [join(here, 'http-floor.mjs'), JSON.stringify({ root, ...config })],
    {},
    async (output) => /listening \d+/.test(output()),
  );
  const port = /listening (\d+)/.exec(floor.output())[1];
  return { ...floor, base: `http://127.0.0.1:${port}` };
}

/** A floor reading the service's database: its SQLite file or its PostgreSQL database. */
export const databaseOf = ({ pg, dataDir }) =>
  pg ? { databaseUrl: pg.url } : { sqliteFile: join(dataDir, 'configurator.sqlite') };

let scratch;
function scratchDir() {
  if (scratch === undefined) {
    scratch = mkdtempSync(join(tmpdir(), 'http-bench-floor-'));
    const dir = scratch;
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  }
  return scratch;
}

/**
 * The preview's floor (issue #27): a node:http server evaluating the same model (compiled
 * once at its start) with the checkout's engine, answering the same bytes. `more`: another
 * mode that evaluates (`store`, PUT's floor, with the database it writes to).
 */
export async function startEvaluateFloor(model, name, modelId, more = {}) {
  const modelFile = join(scratchDir(), `model-${name}`);
  writeFileSync(modelFile, model);
  return startFloor({
    mode: 'evaluate',
    ...more,
    modelFile,
    format: model.trimStart().startsWith('{') ? 'json' : 'yaml',
    modelId,
    versionNumber: 1,
    message: 'Configuration evaluated',
  });
}

/**
 * The architecture's floors of a preview (`--stack-floors`, http-floor-stack.mjs, ADR
 * 0234): the evaluation in a worker thread behind bare node:http, then behind a minimal
 * NestJS app with the JWT check and session read; each named for the tables.
 */
export async function startStackFloors(at, size, name, modelId) {
  const floors = [];
  for (const [mode, label, more] of [
    ['worker', 'node:http + worker floor', {}],
    ['nest', 'Nest + JWT + session + worker floor', { ...JWT, ...databaseOf(at) }],
  ]) {
    const floor = await startEvaluateFloor(size.model, name, modelId, { mode, ...more });
    at.floors.push(floor);
    floors.push({ ...floor, name: label });
  }
  return floors;
}

/**
 * Throws unless a floor answers what the service does (parsed; a line's `cache` timings
 * left out, they differ from one evaluation to the next).
 */
export async function sameAnswer(serviceBase, floorBase, request, what) {
  const [fromService, fromFloor] = await Promise.all(
    [serviceBase, floorBase].map((at) =>
      call(at, request.method, request.path, { body: request.body, headers: request.headers }),
    ),
  );
  const parsed = (text) => {
    const value = JSON.parse(text);
    if (value.data && typeof value.data === 'object') delete value.data.cache;
    return value;
  };
  if (isDeepStrictEqual(parsed(fromService.text), parsed(fromFloor.text))) return;
  const [a, b] = [fromService.text, fromFloor.text];
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  throw new Error(
    `${what}: the floor answers otherwise, from character ${at}: …${a.slice(at - 200, at + 200)} / …${b.slice(at - 200, at + 200)}`,
  );
}

/** The checkout's engine, loaded into this process (its dist/, as the service runs it). */
let engine;
async function loadEngine() {
  engine ??= await import(pathToFileURL(engineEntry(root)).href);
  return engine;
}

/** Evaluations per side; the first quarter (service) and half (alone) only warm up. */
const ENGINE_SAMPLES = 40;

/**
 * The engine inside the service (median `cache.evaluated_in_ms` of sequential previews)
 * against the engine alone in this process, in a loop on the same model and answers.
 */
export async function compareEngine(database, label, source, body, preview) {
  const inService = [];
  for (let i = 0; i < ENGINE_SAMPLES; i++) {
    const answer = await preview();
    if (i >= ENGINE_SAMPLES / 4) inService.push(JSON.parse(answer.text).data.cache.evaluated_in_ms);
  }
  const { readModelSource, compileDocument, evaluate, DEFAULT_ENGINE_LIMITS } = await loadEngine();
  const format = source.trimStart().startsWith('{') ? 'json' : 'yaml';
  const read = await readModelSource(Buffer.from(source), format, DEFAULT_ENGINE_LIMITS);
  const compiled = compileDocument(read.value.document, DEFAULT_ENGINE_LIMITS);
  if (!compiled.ok) throw new Error(`engine alone: ${label} does not compile`);
  const alone = [];
  for (let i = 0; i < ENGINE_SAMPLES * 2; i++) {
    const { questions } = JSON.parse(body);
    const request = { modelId: 1, versionNumber: 1, questions, languageCode: null };
    const startedAt = performance.now();
    evaluate(compiled.model, request);
    if (i >= ENGINE_SAMPLES) alone.push(performance.now() - startedAt);
  }
  const service = median(inService);
  const own = median(alone);
  tables.engine.push({
    database,
    model: label,
    'in the service, ms': service.toFixed(2),
    'engine alone, ms': own.toFixed(2),
    ratio: (service / own).toFixed(2),
  });
}
