/**
 * Slow bodies (issue 39): the built service (SQLite, default admission limits) while an
 * attacker at 127.0.0.2, in a process of its own (slow-bodies-attacker.mjs), keeps
 * ATTACKERS connections open, each a POST with an invented `Authorization` whose body
 * trickles in (a byte a second of a declared 100 kB), reopening any the service closed.
 * Another tenant (127.0.0.1) reads /v1/users/me and its companies, and logs in, first for BASELINE_MS without the attack (the same run's
 * figures on the same machine), then for ATTACK_MS with it. Passes when every victim
 * request and login answered 2xx with p99 ≤ 200 ms under attack.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loop,
  msPercentile,
  runAlone,
  sleep,
  startFaultService,
  statuses,
  timed,
  timedLogin,
} from './fault-support.mjs';

const ATTACKERS = 200;
const ATTACK_MS = 15_000;
const BASELINE_MS = 5_000;
const here = dirname(fileURLToPath(import.meta.url));
const P99_GOAL_MS = 200;

const p99 = (results) => msPercentile(results, 99);

/** The other tenant's reads (two lanes) and logins (one lane) for `ms`. */
async function victimLoad(base, auth, ms) {
  const victim = [];
  const logins = [];
  const started = Date.now();
  const until = () => Date.now() - started > ms;
  await Promise.all([
    loop(
      2,
      async () => {
        victim.push(await timed(`${base}/v1/users/me`, { headers: auth }));
        await sleep(20);
        return timed(`${base}/v1/companies`, { headers: auth });
      },
      until,
      victim,
    ),
    loop(
      1,
      async () => {
        const res = await timedLogin(base);
        await sleep(200);
        return res;
      },
      until,
      logins,
    ),
  ]);
  return { victim, logins };
}

export default async function run() {
  const service = await startFaultService('slow');
  const base = service.base;
  try {
    const { token } = service.tenant;
    const auth = { Authorization: `Bearer ${token}` };
    const baseline = await victimLoad(base, auth, BASELINE_MS);
    // The attacker runs in its own process; it connects for 2 s before the victim measures.
    const attacker = spawn(
      process.execPath,
      [
        join(here, 'slow-bodies-attacker.mjs'),
        base,
        String(ATTACKERS),
        String(ATTACK_MS / 1000 + 3),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let attackerOutput = '';
    attacker.stdout.on('data', (chunk) => (attackerOutput += chunk));
    await sleep(2_000);
    const { victim, logins } = await victimLoad(base, auth, ATTACK_MS);
    await once(attacker, 'exit');
    const figures = {
      attackers: ATTACKERS,
      attack_seconds: ATTACK_MS / 1000,
      attacker_answers: JSON.parse(attackerOutput || '{}'),
      baseline_victim_p99_ms: p99(baseline.victim),
      baseline_login_p99_ms: p99(baseline.logins),
      victim_requests: statuses(victim),
      victim_p99_ratio_to_baseline: Math.round((p99(victim) / p99(baseline.victim)) * 100) / 100,
      victim_p50_ms: msPercentile(victim, 50),
      victim_p99_ms: msPercentile(victim, 99),
      logins: statuses(logins),
      login_p50_ms: msPercentile(logins, 50),
      login_p99_ms: msPercentile(logins, 99),
      p99_goal_ms: P99_GOAL_MS,
    };
    const ok = (results) =>
      results.length > 0 && results.every((r) => r.status >= 200 && r.status < 300);
    const passed =
      ok(victim) &&
      ok(logins) &&
      figures.victim_p99_ms <= P99_GOAL_MS &&
      figures.login_p99_ms <= P99_GOAL_MS;
    return { name: 'slow-bodies', passed, figures };
  } finally {
    await service.stop();
  }
}

await runAlone(import.meta.url, run);
