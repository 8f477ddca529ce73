/**
 * Guided configuration over HTTP (issue "Guided configuration", goal: resolution p99 ≤ 100 ms
 * over HTTP on the 268-question car). The built service on SQLite, one connection, one
 * request at a time (each time is a click's), timed from the request to the answer's last
 * byte, in the same run:
 *   - `plain`: the previews of random walks (each step answers a question with an option
 *     the previous preview showed available);
 *   - `pick`: along those walks, a forced pick of an option the preview showed unavailable
 *     (`resolve: {question, value}`);
 *   - `repair`: random conflicting answer sets (every question a random option, available
 *     or not) repaired with `resolve: true`.
 *
 *   npm run build && node bench/guided-http.bench.mjs --model /work/renault-big/model.json
 *
 * Options: --model <model.json> (default: renault-megane of the shared benchmarks),
 * --requests <n> per kind (default 200), --seed <n>.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fixed, median, percentile } from './http-measure.mjs';
import { benchmarksDir, nodeArgs, option, repo, serviceEnv } from './http-options.mjs';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  call,
  startService,
  uploadModel,
} from './service-fixture.mjs';
import { prng } from '../test/support/prng.ts';

const modelPath = option('model', join(benchmarksDir, 'renault-megane', 'model.json'));
const requests = Number(option('requests', 200));
const random = prng(Number(option('seed', 42)));

const dataDir = mkdtempSync(join(tmpdir(), 'guided-bench-'));
const service = await startService(
  repo,
  { ...BENCH_SERVICE_ENV, DATA_DIR: dataDir, JWT_ACCESS_TTL: '7200', ...serviceEnv },
  nodeArgs,
);
const times = { plain: [], pick: [], repair: [] };
const engine = { plain: [], pick: [], repair: [] };
let notOk = 0;

try {
  const tenant = await benchTenant(service.base);
  const uploadStarted = performance.now();
  const modelId = await uploadModel(
    service.base,
    tenant.token,
    tenant.supplier.id,
    readFileSync(modelPath, 'utf8'),
  );
  const uploadMs = performance.now() - uploadStarted;
  const headers = { Authorization: `Bearer ${tenant.token}` };

  /** One timed preview of `kind`; its line (null when not 200). */
  const preview = async (kind, questions, extra = {}) => {
    const body = JSON.stringify({
      model_id: modelId,
      company_id: tenant.company.id,
      questions,
      ...extra,
    });
    const started = performance.now();
    const answer = await call(service.base, 'POST', '/v1/carts/preview?view=compact', {
      body,
      headers,
    });
    const ms = performance.now() - started;
    if (answer.status !== 200) {
      notOk += 1;
      return null;
    }
    const line = JSON.parse(answer.text).data;
    times[kind].push(ms);
    engine[kind].push(line.cache.evaluated_in_ms);
    return line;
  };

  // The described options (the compact line lists only the unavailable ones).
  const described = JSON.parse(readFileSync(modelPath, 'utf8')).questions.filter(
    (question) => question.options,
  );
  // Not timed: the first previews load the version into its worker.
  for (let i = 0; i < 3; i++) await preview('plain', {});
  times.plain.length = 0;
  engine.plain.length = 0;
  const pick = (items) => items[Math.floor(random() * items.length)];

  while (times.plain.length < requests || times.pick.length < requests) {
    const answers = {};
    let line = await preview('plain', answers);
    for (const question of [...described].sort(() => random() - 0.5)) {
      if (line === null || times.pick.length >= requests) break;
      const shown = line.questions.find((q) => q.key === question.key);
      if (!shown?.visible) continue;
      const unavailable = new Set((shown.options ?? []).map((o) => o.key));
      const blocked = question.options.filter((o) => unavailable.has(o.key));
      if (blocked.length > 0 && random() < 0.5) {
        await preview('pick', answers, {
          resolve: { question: question.key, value: pick(blocked).key },
        });
      }
      const open = question.options.filter((o) => !unavailable.has(o.key));
      if (open.length === 0) continue;
      answers[question.key] = { values: [pick(open).key] };
      line = await preview('plain', answers);
    }
  }
  while (times.repair.length < requests) {
    const answers = Object.fromEntries(
      described.map((question) => [question.key, { values: [pick(question.options).key] }]),
    );
    await preview('repair', answers, { resolve: true });
  }
  console.log(`model ${modelPath}: upload ${fixed(uploadMs / 1000)} s`);
  console.table(
    Object.keys(times).map((kind) => ({
      kind,
      requests: times[kind].length,
      'median ms': fixed(median(times[kind])),
      'p99 ms': fixed(percentile(times[kind], 0.99)),
      'max ms': fixed(Math.max(...times[kind])),
      'engine median ms': fixed(median(engine[kind])),
      'engine p99 ms': fixed(percentile(engine[kind], 0.99)),
      'p99 / plain p99': fixed(percentile(times[kind], 0.99) / percentile(times.plain, 0.99), 2),
    })),
  );
  console.log(`not 200: ${notOk}`);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
