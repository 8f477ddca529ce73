/**
 * A preview's main-thread CPU, same run, between checkouts (issue #43, docs/adr/0239):
 * each checkout's built service (its own SQLite directory) and, with --nest-floor, the
 * NestJS floor of the architecture (http-floor-stack.mjs, ADR 0234) answer the same
 * full-view preview one request at a time, in blocks that alternate (their order reversed
 * every round). Per block, the main thread's CPU per request from
 * /proc/<pid>/task/<pid>/schedstat (nanoseconds: /proc's stat counts 10 ms ticks, too
 * coarse for blocks of a few hundred milliseconds); per target its mean and median over
 * the rounds, and the second target's over the first's, block by block (the paired ratio;
 * the first two rounds, still warming up, left out). A place in the list has measured
 * 4–13 % of bias by itself (the same build against itself: 1.04), so run it twice, the
 * checkouts' order swapped: the change is the square root of the first run's ratio over
 * the second's.
 *
 *   npm run build && node bench/preview-main-thread.bench.mjs \
 *     --roots /path/to/base,/path/to/branch --sizes 100,1000,5000 --rounds 12 --nest-floor
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  startChild,
  startService,
  uploadModel,
} from './service-fixture.mjs';
import { JWT } from './http-floors.mjs';
import { flag, here, nodeArgs, option, repo } from './http-options.mjs';

const roots = option('roots', repo).split(',');
const sizes = option('sizes', '100,1000,5000').split(',').map(Number);
const rounds = Number(option('rounds', '12'));
/** Requests per block: about a third of a second of one service's main thread each. */
const perBlock = (size) => (size <= 100 ? 200 : size <= 1000 ? 60 : 20);

/** CPU seconds the main thread (the task of the process's own id) has run. */
const mainCpuSeconds = (pid) =>
  Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** One request on `agent`'s kept-alive connection: its status and body. */
function send(agent, base, { path, headers, body }) {
  return new Promise((resolve, reject) => {
    const options = {
      method: 'POST',
      agent,
      headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
    };
    const req = httpRequest(`${base}${path}`, options, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An answer without what differs between two services' equal answers (ids, timings). */
const comparable = (text) =>
  text
    .replace(/"evaluated_in_ms":[\d.]+/g, '')
    .replace(/"(model_id|company_id|id|supplier_id)":("[^"]*"|\d+)/g, '');

const dataDirs = [];
const targets = [];
for (const root of roots) {
  const dataDir = mkdtempSync(join(tmpdir(), 'preview-main-thread-'));
  dataDirs.push(dataDir);
  const env = {
    ...BENCH_SERVICE_ENV,
    DATA_DIR: dataDir,
    JWT_ACCESS_TTL: '7200',
    EVALUATION_TIMEOUT_MS: '60000',
    SHUTDOWN_DELAY: '0',
  };
  const service = await startService(root, env, nodeArgs);
  targets.push({ name: root, service, tenant: await benchTenant(service.base) });
}

try {
  const { generateModel } = await import(pathToFileURL(join(repo, 'tools', 'gen-model.mjs')).href);
  for (const size of sizes) {
    const generated = generateModel(size);
    generated.model.general = { ...generated.model.general, code: `main-thread-${size}` };
    const model = JSON.stringify(generated.model);
    const requests = [];
    for (const { service, tenant } of targets) {
      const modelId = await uploadModel(service.base, tenant.token, tenant.supplier.id, model);
      requests.push({
        path: '/v1/carts/preview',
        headers: { Authorization: `Bearer ${tenant.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model_id: modelId,
          company_id: tenant.company.id,
          questions: generated.answers,
        }),
      });
    }
    // --nest-floor: the floor reads the first service's database (its session, its model id).
    const blocks = targets.map((target, i) => ({ ...target, request: requests[i] }));
    let floor;
    if (flag('nest-floor')) {
      const modelFile = join(dataDirs[0], `model-${size}.json`);
      writeFileSync(modelFile, model);
      const config = {
        root: repo,
        mode: 'nest',
        modelFile,
        format: 'json',
        modelId: JSON.parse(requests[0].body).model_id,
        versionNumber: 1,
        message: 'Configuration evaluated',
        ...JWT,
        sqliteFile: join(dataDirs[0], 'configurator.sqlite'),
      };
      floor = await startChild(
        repo,
        [join(here, 'http-floor.mjs'), JSON.stringify(config)],
        {},
        async (output) => /listening \d+/.test(output()),
      );
      const port = /listening (\d+)/.exec(floor.output())[1];
      const base = `http://127.0.0.1:${port}`;
      blocks.push({
        name: 'NestJS floor',
        service: { base, child: floor.child },
        request: requests[0],
      });
    }
    for (const block of blocks) block.agent = new Agent({ keepAlive: true, maxSockets: 1 });

    // Warm-up, and the services' answers compared (the floor's is checked by bench:http).
    const answers = [];
    for (const block of blocks) {
      let answer;
      for (let n = 0; n < 10; n++)
        answer = await send(block.agent, block.service.base, block.request);
      if (answer.status !== 200) throw new Error(`${block.name}: ${answer.status} ${answer.text}`);
      answers.push(comparable(answer.text));
    }
    const same = answers.slice(0, targets.length).every((answer) => answer === answers[0]);
    if (!same) throw new Error(`size ${size}: the checkouts' answers differ`);

    const perRequest = blocks.map(() => []);
    const loads = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [...blocks.keys()] : [...blocks.keys()].reverse();
      for (const i of order) {
        const { agent, service, request } = blocks[i];
        const before = mainCpuSeconds(service.child.pid);
        for (let n = 0; n < perBlock(size); n++) {
          const { status } = await send(agent, service.base, request);
          if (status !== 200) throw new Error(`${blocks[i].name}: ${status}`);
        }
        perRequest[i].push((1000 * (mainCpuSeconds(service.child.pid) - before)) / perBlock(size));
      }
      loads.push(load());
    }
    for (const block of blocks) block.agent.destroy();
    floor?.child.kill();

    console.log(`\n${size} questions, ${perBlock(size)} previews a block; load ${loads.join(' ')}`);
    for (const [i, block] of blocks.entries()) {
      const ms = perRequest[i];
      console.log(
        `  ${block.name}: main CPU ms per preview mean ${mean(ms).toFixed(2)}, median ` +
          `${median(ms).toFixed(2)} [${ms.map((x) => x.toFixed(2)).join(' ')}]`,
      );
    }
    if (targets.length >= 2) {
      const ratios = perRequest[1].slice(2).map((ms, k) => ms / perRequest[0][k + 2]);
      console.log(
        `  paired ratio, ${blocks[1].name} over ${blocks[0].name}: median ` +
          `${median(ratios).toFixed(3)}, mean ${mean(ratios).toFixed(3)}`,
      );
    }
  }
} finally {
  for (const { service } of targets) {
    const exited = new Promise((done) => service.child.once('exit', done));
    service.child.kill();
    await exited;
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
