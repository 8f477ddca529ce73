/**
 * Fault scenario "fair compiles" (issue 39, compiles): while one supplier's long compile
 * runs, another supplier's small uploads answer within 2 s. The built service on SQLite
 * in a temporary directory, one compile worker (the quick lane beside it, ADR 0161).
 * Supplier A uploads a long model (`options.questions` questions, a rule across
 * neighbours each); once it has run `options.headStartMs`, supplier B uploads
 * `options.smallUploads` small models one after the other. Figures: each small upload's
 * latency, the long compile's duration, and whether it was still running when the small
 * ones had answered. Runnable alone: `npm run build && node bench/faults/fair-compiles.scenario.mjs`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  call,
  data,
  startService,
  uploadModel,
} from '../service-fixture.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const GOAL_MS = 2000;

function longModel(code, count) {
  const options = Array.from({ length: 10 }, (_, o) => ({ key: `o${o}`, label: `Option ${o}` }));
  return {
    general: { name: `Long ${code}`, code },
    questions: Array.from({ length: count }, (_, q) => ({
      key: `q${q}`,
      type: 'choice',
      label: `Question ${q}`,
      options,
    })),
    rules: Array.from({ length: count }, (_, r) => ({
      key: `r${r}`,
      when: `q${r} != null`,
      assert: `q${r} != 'o9' || q${(r + 1) % count} != 'o9'`,
      message: 'not both',
    })),
  };
}

function smallModel(code) {
  return {
    general: { name: `Small ${code}`, code },
    questions: [
      {
        key: 'size',
        type: 'choice',
        label: 'Size',
        options: [
          { key: 's', label: 'S' },
          { key: 'l', label: 'L' },
        ],
      },
    ],
    pricing: { base_price: '10.00' },
  };
}

/** A second supplier of the tenant's company, with the admin as its member. */
async function otherSupplier(base, tenant) {
  const supplier = await data(base, 'POST', `/v1/suppliers/${tenant.company.id}`, {
    token: tenant.token,
    body: JSON.stringify({ email: 'b@bench.test', name: 'Supplier B', website: 'https://b.test' }),
  });
  await data(base, 'POST', `/v1/suppliers/${supplier.id}/members`, {
    token: tenant.token,
    body: JSON.stringify({ user_id: tenant.me.id }),
  });
  return supplier;
}

export default async function run(options = {}) {
  const questions = options.questions ?? 2500;
  const headStartMs = options.headStartMs ?? 3000;
  const smallUploads = options.smallUploads ?? 5;
  const dataDir = mkdtempSync(join(tmpdir(), 'fault-compiles-'));
  const service = await startService(options.root ?? ROOT, {
    ...BENCH_SERVICE_ENV,
    DATA_DIR: dataDir,
    COMPILE_WORKERS: '1',
  });
  try {
    const tenant = await benchTenant(service.base);
    const other = await otherSupplier(service.base, tenant);
    const started = Date.now();
    let longMs = null;
    const long = call(service.base, 'POST', `/v1/suppliers/${tenant.supplier.id}/models`, {
      token: tenant.token,
      body: JSON.stringify(longModel('LONG', questions)),
    }).then((res) => {
      longMs = Date.now() - started;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, headStartMs));
    const smallMs = [];
    for (let i = 0; i < smallUploads; i++) {
      const before = Date.now();
      await uploadModel(service.base, tenant.token, other.id, JSON.stringify(smallModel(`S${i}`)));
      smallMs.push(Date.now() - before);
    }
    const longRunningDuringSmall = longMs === null;
    const longAnswer = await long;
    const maxSmallMs = Math.max(...smallMs);
    return {
      name: 'fair-compiles',
      passed: maxSmallMs <= GOAL_MS && longRunningDuringSmall && longAnswer.status === 201,
      figures: {
        smallUploadMs: smallMs,
        maxSmallUploadMs: maxSmallMs,
        goalMs: GOAL_MS,
        longCompileMs: longMs,
        longQuestions: questions,
        longStatus: longAnswer.status,
        longRunningDuringSmall,
      },
    };
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(JSON.stringify(result, null, 2));
  process.exitCode = result.passed ? 0 : 1;
}
