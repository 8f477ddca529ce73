/**
 * Silent database (issue 39): the built service on PostgreSQL behind a TCP proxy that goes
 * silent (a black hole: no answer, no reset) for SILENT_MS, then comes back for new
 * connections only (the old ones stay silent, as after a failover). Load throughout:
 * LANES clients reading /v1/users/me (a session read per request) and a readiness probe
 * every 250 ms. Passes when readiness and requests are back within 30 s of the return,
 * and no request took longer than its deadline (acquire + client query timeout + 3 s).
 */
import { BENCH_ADMIN, data } from '../service-fixture.mjs';
import {
  errorCodes,
  loop,
  msPercentile,
  pgBehindProxy,
  readinessProbe,
  runAlone,
  sleep,
  startFaultService,
  statuses,
  sustainedAfter,
  timed,
} from './fault-support.mjs';
import { startSilenceableProxy } from './tcp-proxy.mjs';

const LANES = 4;
const WARM_MS = 3_000;
const SILENT_MS = 10_000;
const RECOVERY_GOAL_MS = 30_000;
const ACQUIRE_MS = 5_000;
const STATEMENT_MS = 10_000;
/** The client's query deadline is the statement timeout + 2 s (storage.config.ts). */
const DEADLINE_MS = ACQUIRE_MS + STATEMENT_MS + 2_000 + 3_000;

export default async function run() {
  const database = await pgBehindProxy('faults_silent', (host, port) =>
    startSilenceableProxy(port, host),
  );
  const { proxy } = database;
  const service = await startFaultService(
    'silent',
    {
      DATABASE_URL: database.url,
      DATABASE_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_MS),
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
    },
    { tenant: false },
  );
  try {
    const { access_token: token } = await data(service.base, 'POST', '/v1/login', {
      body: JSON.stringify(BENCH_ADMIN),
    });
    let stop = false;
    const started = Date.now();
    const requestResults = [];
    const probeResults = [];
    const requests = loop(
      LANES,
      () => timed(`${service.base}/v1/users/me`, { headers: { Authorization: `Bearer ${token}` } }),
      () => stop,
      requestResults,
    );
    const probes = loop(
      1,
      () => readinessProbe(service.base),
      () => stop,
      probeResults,
    );
    await sleep(WARM_MS);
    proxy.silence();
    const silencedAt = Date.now();
    await sleep(SILENT_MS);
    proxy.restore();
    const restoredAt = Date.now();
    // Until both have answered 2xx for 3 s in a row (or the goal passed, with room).
    const back = (results) => {
      const since = sustainedAfter(results, restoredAt);
      return since !== null && Date.now() - since >= 3_000;
    };
    while (Date.now() < restoredAt + RECOVERY_GOAL_MS + 5_000) {
      if (back(requestResults) && back(probeResults)) break;
      await sleep(250);
    }
    stop = true;
    await Promise.all([requests, probes]);
    const readyAgain = sustainedAfter(probeResults, restoredAt);
    const servedAgain = sustainedAfter(requestResults, restoredAt);
    const durations = requestResults.map((result) => result.ms);
    const slowest = Math.max(...durations, ...probeResults.map((result) => result.ms));
    const during = requestResults.filter((r) => r.at >= silencedAt && r.at < restoredAt);
    const figures = {
      silent_ms: SILENT_MS,
      requests: requestResults.length,
      statuses: statuses(requestResults),
      statuses_while_silent: statuses(during),
      error_codes: errorCodes(requestResults.filter((r) => r.status >= 300)),
      readiness_statuses: statuses(probeResults),
      ready_again_ms_after_return: readyAgain === null ? null : readyAgain - restoredAt,
      served_again_ms_after_return: servedAgain === null ? null : servedAgain - restoredAt,
      slowest_request_ms: Math.round(slowest),
      request_p99_ms: msPercentile(requestResults, 99),
      deadline_ms: DEADLINE_MS,
      run_seconds: Math.round((Date.now() - started) / 1000),
    };
    const passed =
      readyAgain !== null &&
      servedAgain !== null &&
      readyAgain - restoredAt <= RECOVERY_GOAL_MS &&
      servedAgain - restoredAt <= RECOVERY_GOAL_MS &&
      slowest <= DEADLINE_MS &&
      requestResults.every((r) => r.status !== 0 && r.status !== 500);
    return { name: 'silent-database', passed, figures };
  } finally {
    await service.stop();
    await database.drop().catch(() => undefined);
  }
}

await runAlone(import.meta.url, run);
