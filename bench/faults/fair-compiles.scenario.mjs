/**
 * Fault scenario "fair compiles" (issue 39, compiles): while one supplier's long compile
 * runs, another supplier's small uploads answer within 2 s. The built service on SQLite
 * in a temporary directory, one compile worker (the quick lane beside it, ADR 0161).
 * Supplier A uploads a long model (`chainedModel` of fault-models.mjs, `options.questions`
 * questions); once it has run `options.headStartMs`, supplier B uploads
 * `options.smallUploads` small models one after the other. Figures: each small upload's
 * latency, the long compile's duration, and whether it was still running when the small
 * ones had answered. Runnable alone: `npm run build && node bench/faults/fair-compiles.scenario.mjs`.
 */
import { call, data, uploadModel } from '../service-fixture.mjs';
import { chainedModel, sizeModel } from './fault-models.mjs';
import { runAlone, startFaultService } from './fault-support.mjs';

const GOAL_MS = 2000;

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
  const service = await startFaultService(
    'compiles',
    { COMPILE_WORKERS: '1' },
    { root: options.root },
  );
  try {
    const { tenant } = service;
    const other = await otherSupplier(service.base, tenant);
    const started = Date.now();
    let longMs = null;
    const long = call(service.base, 'POST', `/v1/suppliers/${tenant.supplier.id}/models`, {
      token: tenant.token,
      body: JSON.stringify(chainedModel('LONG', questions)),
    }).then((res) => {
      longMs = Date.now() - started;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, headStartMs));
    const smallMs = [];
    for (let i = 0; i < smallUploads; i++) {
      const before = Date.now();
      await uploadModel(service.base, tenant.token, other.id, JSON.stringify(sizeModel(`S${i}`)));
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
  }
}

await runAlone(import.meta.url, run);
