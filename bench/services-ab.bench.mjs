/**
 * Checkouts' services side by side (not a test): one service per `--roots` checkout (its
 * dist/), all running at once, each with the same generated model uploaded (so adopted by
 * its evaluation worker, ADR 0197), then rounds of `--per` sequential previews (full view)
 * per service, the services in turn and the order rotating each round. Per block, from
 * /proc/<pid>/task: the worker threads' CPU per preview (in a sequential run, the
 * evaluation worker's own), the main thread's and V8's GC helpers'. What decides whether an
 * engine change pays where it matters (ADR 0238): the blocks alternate within one run, so
 * the machine's other load falls on every checkout alike.
 *
 *   node bench/services-ab.bench.mjs --size 5000 --rounds 24 --per 10 --roots /work/main,.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  call,
  startService,
  uploadModel,
} from './service-fixture.mjs';
import { sizeModel } from './http-sizes.mjs';
import { option } from './http-options.mjs';
import { statCpuSeconds } from './http-measure.mjs';

/** CPU seconds of `pid`'s threads, summed by thread name (Node names its threads). */
function threadCpu(pid) {
  const cpu = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      cpu[name] = (cpu[name] ?? 0) + statCpuSeconds(stat);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

const size = await sizeModel(option('size', '5000'));
const rounds = Number(option('rounds', '24'));
const per = Number(option('per', '10'));
const roots = option('roots', '.')
  .split(',')
  .map((root) => resolve(root));
const targets = [];
const loadBefore = loadAverage();
try {
  for (const root of roots) {
    const dataDir = mkdtempSync(join(tmpdir(), 'services-ab-'));
    const service = await startService(root, { ...BENCH_SERVICE_ENV, DATA_DIR: dataDir });
    const target = { root, service, dataDir, blocks: [] };
    targets.push(target);
    const { token, company, supplier } = await benchTenant(service.base);
    const modelId = await uploadModel(service.base, token, supplier.id, size.model, size.yaml);
    const body = JSON.stringify({
      model_id: modelId,
      company_id: company.id,
      questions: size.answers,
    });
    const headers = {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      'Accept-Encoding': 'identity',
    };
    target.request = { method: 'POST', path: '/v1/carts/preview', headers, body };
  }
  const preview = async ({ service, request }) => {
    const res = await call(service.base, request.method, request.path, request);
    if (res.status !== 200) throw new Error(`preview: ${res.status}`);
  };
  for (const target of targets) for (let i = 0; i < 20; i++) await preview(target);
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < targets.length; k++) {
      const target = targets[(k + round) % targets.length];
      const before = threadCpu(target.service.child.pid);
      for (let i = 0; i < per; i++) await preview(target);
      const after = threadCpu(target.service.child.pid);
      const perPreview = (name) => (1000 * ((after[name] ?? 0) - (before[name] ?? 0))) / per;
      target.blocks.push({
        worker: perPreview('WorkerThread'),
        main: perPreview('MainThread'),
        gc: perPreview('V8Worker'),
      });
    }
  console.log(
    `${size.label}, ${rounds} rounds of ${per} previews; load ${loadBefore} → ${loadAverage()}`,
  );
  console.table(
    targets.map(({ root, blocks }) => ({
      checkout: root,
      'worker CPU ms': mean(blocks.map((b) => b.worker)).toFixed(2),
      'main CPU ms': mean(blocks.map((b) => b.main)).toFixed(2),
      'GC helpers CPU ms': mean(blocks.map((b) => b.gc)).toFixed(2),
    })),
  );
} finally {
  for (const target of targets) {
    await target.service.stop();
    rmSync(target.dataDir, { recursive: true, force: true });
  }
}
