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
 * Each view of `--view` (http-options.mjs: the configure page's compact view unless
 * given) has its own connection and row; with several, every view previews the same
 * answer sets: each click asked of every view in turn, the order alternating click by
 * click (`--alternate click`, the default: load that drifts, and the engine's warming up
 * on a fresh version, fall on every view alike; the second request of a click finds the
 * engine's passes of the same answers), or each walk (and each sold car) clicked in every
 * view in turn, the order alternating from one walk to the next (`--alternate walk`). A
 * compact line lists only the unavailable options, so its walk reads the option keys and
 * question types from the model's description (GET /v1/companies/{id}/models), as the
 * page does.
 */
import { performance } from 'node:perf_hooks';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import {
  cpuSeconds,
  fixed,
  mainThreadCpuSeconds,
  median,
  percentile,
  tables,
  threadsCpuSeconds,
} from './http-measure.mjs';
import { alternate, clicks as clickBudget, clicksOut, clickViews, seed } from './http-options.mjs';
// The tests' seeded generator (mulberry32), so that runs and builds walk alike; a .ts
// module, which the Node 24 that runs the benchmarks loads as it is (type stripping).
import { prng } from '../test/support/prng.ts';
import { logClick } from './click-log.mjs';

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
function timedPreview(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      url,
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
            bytes: bytes.length,
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

/** The service's CPU seconds: all threads, its main thread, its workers, V8's GC helpers. */
const threadSeconds = (pid) => [
  cpuSeconds(pid),
  mainThreadCpuSeconds(pid),
  threadsCpuSeconds(pid, 'WorkerThread'),
  threadsCpuSeconds(pid, 'V8Worker'),
];

/**
 * Times previews of one model in one view; `clicks` collects {ms, engineMs, cpuMs, mainMs,
 * workerMs, gcMs, bytes, status}: cpuMs is the service's CPU (all threads) from before the
 * request to after the answer, mainMs, workerMs and gcMs its main thread's, its workers'
 * and V8's GC helpers' part of it, whose sums over many clicks are exact though /proc
 * counts in 10 ms ticks.
 */
function clicker({ base, headers, modelId, companyId, pid }, view) {
  const clicks = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = `${base}/v1/carts/preview${view === 'full' ? '' : `?view=${view}`}`;
  const preview = async (questions) => {
    const body = JSON.stringify({ model_id: modelId, company_id: companyId, questions });
    const before = threadSeconds(pid);
    const answer = await timedPreview(agent, url, headers, body);
    const [cpuMs, mainMs, workerMs, gcMs] = threadSeconds(pid).map(
      (s, i) => 1000 * (s - before[i]),
    );
    const data = answer.status === 200 ? JSON.parse(answer.text).data : null;
    const click = {
      ms: answer.ms,
      engineMs: data?.cache?.evaluated_in_ms ?? NaN,
      cpuMs,
      mainMs,
      workerMs,
      gcMs,
      bytes: answer.bytes,
      status: answer.status,
    };
    clicks.push(click);
    logClick(pid, click);
    return data;
  };
  return { view, clicks, preview, close: () => agent.destroy() };
}

/** The model's questions by key as the company's model list describes them. */
async function describedQuestions({ base, headers, modelId, companyId }) {
  for (let page = 1; ; page++) {
    const res = await fetch(`${base}/v1/companies/${companyId}/models?page=${page}&per_page=200`, {
      headers,
    });
    const models = (await res.json()).data;
    const found = models.find((model) => model.id === modelId);
    if (found) return new Map(found.questions.map((question) => [question.key, question]));
    if (models.length < 200) throw new Error(`model ${modelId} is not offered to ${companyId}`);
  }
}

/**
 * The values a click may pick: the available options of a choice, the values of a boolean
 * (a feature model's questions) not in `unavailable_values`. A compact question has no
 * type and lists only its unavailable options: both come from the description.
 */
function availableValues(question, described) {
  if (question === undefined) return [];
  const spec = described?.get(question.key);
  if ((question.type ?? spec?.type) === 'boolean') {
    const out = question.unavailable_values ?? [];
    return [true, false].filter((value) => !out.includes(value));
  }
  const out = new Set(
    (question.options ?? []).filter((option) => !option.available).map((o) => o.key),
  );
  const keys = (question.type ? question.options : spec?.options) ?? [];
  return keys.map((option) => option.key).filter((key) => !out.has(key));
}

/** One random walk; its answers and whether it ended valid (null: a preview failed). */
async function walk({ preview, described }, random, budgetLeft) {
  const answers = {};
  let line = await preview(answers);
  if (line === null) return null;
  for (const key of shuffle(
    line.questions.map((question) => question.key),
    random,
  )) {
    if (budgetLeft() <= 0) return { answers, valid: null };
    const current = line.questions.find((question) => question.key === key);
    const available = availableValues(current, described);
    if (!current?.visible || available.length === 0) continue;
    answers[key] = { values: [available[Math.floor(random() * available.length)]] };
    line = await preview(answers);
    if (line === null) return null;
  }
  return { answers, valid: line.valid };
}

/** One sold car entered value by value in random order (false: a preview failed). */
async function soldCar({ preview }, random, keys, car, budgetLeft) {
  const values = car.trim().split(/\s+/);
  const answers = {};
  for (const i of shuffle(
    keys.map((_, index) => index),
    random,
  )) {
    if (budgetLeft() <= 0) return true;
    answers[keys[i]] = { values: [values[i] === '-1' ? 'n1' : `o${values[i]}`] };
    if ((await preview(answers)) === null) return false;
  }
  return true;
}

/**
 * One clicker that asks every view for each click, the order alternating from one click to
 * the next; it answers with the first view's line.
 */
function paired(clickers) {
  let k = 0;
  const preview = async (questions) => {
    const order = k++ % 2 === 0 ? clickers : [...clickers].reverse();
    const lines = new Map();
    for (const clicker of order) lines.set(clicker, await clicker.preview(questions));
    return lines.get(clickers[0]);
  };
  return { ...clickers[0], preview };
}

/**
 * Runs `step` (a walk, a sold car) in every view with the same random choices: with
 * `--alternate click` (the default) each click is asked of every view in turn (paired);
 * with `--alternate walk` the whole step is run in each view in turn, the order
 * alternating from one step to the next. The results in the order of `clickers`.
 */
async function inEveryView(clickers, master, n, step) {
  const stepSeed = Math.floor(master() * 2 ** 32);
  const left = (clicker) => () => clickBudget - clicker.clicks.length;
  if (alternate === 'click' && clickers.length > 1) {
    const both = paired(clickers);
    const result = await step(both, prng(stepSeed), left(both));
    return clickers.map(() => result);
  }
  const order = n % 2 === 0 ? clickers : [...clickers].reverse();
  const results = new Map();
  for (const clicker of order)
    results.set(clicker, await step(clicker, prng(stepSeed), left(clicker)));
  return clickers.map((clicker) => results.get(clicker));
}

/**
 * Clicks on a real car: a first walk to its end (its answers are returned, for the
 * throughput scenarios), then sold cars or more walks until `--clicks` previews per view.
 * Records one row of the clicks table per view.
 */
export async function realCarClicks(database, size, car) {
  const master = prng(seed);
  const described =
    clickViews.includes('full') && clickViews.length === 1 ? null : await describedQuestions(car);
  const clickers = clickViews.map((view) => ({ ...clicker(car, view), described }));
  // The first preview after the upload answered (goal ≤ 50 ms: the version is prepared
  // ahead), then two more per view, which are not counted among the clicks.
  for (const { preview } of clickers) for (let i = 0; i < 3; i++) await preview({});
  const firstMs = clickers[0].clicks[0].ms;
  for (const { clicks } of clickers) clicks.length = 0;
  let n = 0;
  const firsts = await inEveryView(clickers, master, n++, (c, random) =>
    walk(c, random, () => Infinity),
  );
  const first = firsts[0];
  if (firsts.some((one) => one === null || one.valid !== true))
    throw new Error(`${size.label}: the first walk did not end valid`);
  const firstWalk = clickers[0].clicks.length;
  const spent = () => clickers.every(({ clicks }) => clicks.length >= clickBudget);
  if (size.sales) {
    const lines = readFileSync(size.sales, 'utf8').trim().split('\n');
    const keys = lines[0].trim().split(/\s+/);
    for (const sold of shuffle(lines.slice(1), master)) {
      if (spent()) break;
      const ok = await inEveryView(clickers, master, n++, (c, random, left) =>
        soldCar(c, random, keys, sold, left),
      );
      if (!ok.every(Boolean)) break;
    }
  }
  while (!spent()) {
    const walked = await inEveryView(clickers, master, n++, (c, random, left) =>
      walk(c, random, left),
    );
    if (walked.some((one) => one === null)) break;
  }
  for (const { view, clicks, close } of clickers) {
    close();
    // Every click's times (ms, engineMs, cpuMs, bytes, status), to find what the slow ones spent.
    if (clicksOut !== null) writeFileSync(`${clicksOut}-${view}.json`, JSON.stringify(clicks));
    const ok = clicks.filter((click) => click.status === 200);
    const ms = ok.map((click) => click.ms);
    const engine = clicks.map((click) => click.engineMs).filter(Number.isFinite);
    const perClick = (field) => {
      const values = clicks.map((click) => click[field]).filter(Number.isFinite);
      return fixed(values.reduce((a, b) => a + b, 0) / values.length);
    };
    tables.clicks.push({
      database,
      car: size.label,
      view,
      clicks: clicks.length,
      from: size.sales ? `1 walk (${firstWalk}), sold cars` : 'random walks',
      'median ms': fixed(median(ms)),
      'p99 ms': fixed(percentile(ms, 0.99)),
      'max ms': fixed(Math.max(...ms)),
      'engine median ms': fixed(median(engine)),
      'engine p99 ms': fixed(percentile(engine, 0.99)),
      'service CPU ms/click': perClick('cpuMs'),
      'main / worker / GC ms/click': `${perClick('mainMs')} / ${perClick('workerMs')} / ${perClick('gcMs')}`,
      'br kB median': fixed(median(ok.map((click) => click.bytes / 1000))),
      'not 200': clicks.length - ms.length,
      'first after upload ms': view === clickers[0].view ? fixed(firstMs) : '',
      goal: 'p99 ≤ 100',
    });
  }
  return first.answers;
}
