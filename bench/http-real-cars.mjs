/**
 * Issue #28 over HTTP: "the whole preview: p99 ≤ 100 ms on every real car". Sequential
 * previews (one connection, one request at a time, so each time is a click's, not a
 * queue's) of realistic answer sets, each timed from the request to the answer's last byte:
 *   - random walks: the questions in random order, each answered with one of the options
 *     the previous preview showed available (as bench:consistency walks), every step a
 *     preview; the first walk runs to its end and its answers (valid) are the car's for
 *     the throughput scenarios;
 *   - sold cars (a `sales.txt` beside the model: renault-medium): each car's values
 *     entered in random order, every step a preview.
 * The client is node:http on one kept-alive connection asking for brotli (as a browser
 * does): fetch (undici) added ~4 ms of its own per 230 kB answer, measured beside it.
 */
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { fixed, median, percentile, tables } from './http-measure.mjs';
import { clicks as clickBudget, seed } from './http-options.mjs';
// The tests' seeded generator (mulberry32), so that runs and builds walk alike; a .ts
// module, which the Node 24 that runs the benchmarks loads as it is (type stripping).
import { prng } from '../test/support/prng.ts';

function shuffle(items, random) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/**
 * One preview on `agent`'s kept-alive connection, asking for brotli as browsers do, timed
 * from the first byte sent to the answer's last byte received (as http-sequential.mjs);
 * the answer is decoded after the timer (the client's own work, not the service's).
 */
function timedPreview(agent, base, headers, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      `${base}/v1/carts/preview`,
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Accept-Encoding': 'br',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          const bytes = Buffer.concat(chunks);
          const br = res.headers['content-encoding'] === 'br';
          resolve({
            ms,
            status: res.statusCode,
            text: (br ? brotliDecompressSync(bytes) : bytes).toString(),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Times previews of one model; `clicks` collects {ms, engineMs, status}. */
function clicker(base, headers, modelId, companyId) {
  const clicks = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const preview = async (questions) => {
    const body = JSON.stringify({ model_id: modelId, company_id: companyId, questions });
    const answer = await timedPreview(agent, base, headers, body);
    const data = answer.status === 200 ? JSON.parse(answer.text).data : null;
    clicks.push({
      ms: answer.ms,
      engineMs: data?.cache?.evaluated_in_ms ?? NaN,
      status: answer.status,
    });
    return data;
  };
  return { clicks, preview, close: () => agent.destroy() };
}

/**
 * The values a click may pick: the available options of a choice, the values of a boolean
 * (a feature model's questions) not in `unavailable_values`.
 */
function availableValues(question) {
  if (question?.type === 'boolean') {
    const out = question.unavailable_values ?? [];
    return [true, false].filter((value) => !out.includes(value));
  }
  return (question?.options ?? []).filter((option) => option.available).map((o) => o.key);
}

/** One random walk; its answers and whether it ended valid (null: a preview failed). */
async function walk(preview, random, budgetLeft) {
  const answers = {};
  let line = await preview(answers);
  if (line === null) return null;
  for (const key of shuffle(
    line.questions.map((question) => question.key),
    random,
  )) {
    if (budgetLeft() <= 0) return { answers, valid: null };
    const current = line.questions.find((question) => question.key === key);
    const available = availableValues(current);
    if (!current?.visible || available.length === 0) continue;
    answers[key] = { values: [available[Math.floor(random() * available.length)]] };
    line = await preview(answers);
    if (line === null) return null;
  }
  return { answers, valid: line.valid };
}

/** Sold cars entered value by value in random order, until the budget is spent. */
async function soldCars(preview, random, salesPath, budgetLeft) {
  const lines = readFileSync(salesPath, 'utf8').trim().split('\n');
  const keys = lines[0].trim().split(/\s+/);
  for (const car of shuffle(lines.slice(1), random)) {
    const values = car.trim().split(/\s+/);
    const answers = {};
    for (const i of shuffle(
      keys.map((_, index) => index),
      random,
    )) {
      if (budgetLeft() <= 0) return;
      answers[keys[i]] = { values: [values[i] === '-1' ? 'n1' : `o${values[i]}`] };
      if ((await preview(answers)) === null) return;
    }
  }
}

/**
 * Clicks on a real car: a first walk to its end (its answers are returned, for the
 * throughput scenarios), then sold cars or more walks until `--clicks` previews.
 * Records one row of the clicks table.
 */
export async function realCarClicks(database, size, { base, headers, modelId, companyId }) {
  const random = prng(seed);
  const { clicks, preview, close } = clicker(base, headers, modelId, companyId);
  // The first preview after the upload answered (goal ≤ 50 ms: the version is prepared
  // ahead), then two more, which are not counted among the clicks.
  for (let i = 0; i < 3; i++) await preview({});
  const firstMs = clicks[0].ms;
  clicks.length = 0;
  const left = () => clickBudget - clicks.length;
  const first = await walk(preview, random, () => Infinity);
  if (first === null || first.valid !== true)
    throw new Error(`${size.label}: the first walk did not end valid (${clicks.at(-1)?.status})`);
  const firstWalk = clicks.length;
  if (size.sales) await soldCars(preview, random, size.sales, left);
  while (left() > 0) if ((await walk(preview, random, left)) === null) break;
  close();
  const ms = clicks.filter((click) => click.status === 200).map((click) => click.ms);
  const engine = clicks.map((click) => click.engineMs).filter(Number.isFinite);
  tables.clicks.push({
    database,
    car: size.label,
    clicks: clicks.length,
    from: size.sales ? `1 walk (${firstWalk}), sold cars` : 'random walks',
    'median ms': fixed(median(ms)),
    'p99 ms': fixed(percentile(ms, 0.99)),
    'max ms': fixed(Math.max(...ms)),
    'engine median ms': fixed(median(engine)),
    'engine p99 ms': fixed(percentile(engine, 0.99)),
    'not 200': clicks.length - ms.length,
    'first after upload ms': fixed(firstMs),
    goal: 'p99 ≤ 100',
  });
  return first.answers;
}
