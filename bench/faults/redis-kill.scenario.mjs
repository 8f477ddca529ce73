/**
 * Redis killed under load (issue 39): the built service (SQLite) with REDIS_URL pointing at
 * a redis-server of its own, SIGKILLed while LANES clients log in and create and read carts
 * and readiness is probed every 250 ms; started again OUTAGE_MS later on the same port.
 * Passes when readiness answered 200 throughout, logins and carts kept answering 2xx, the
 * login limit held before, during (per process) and after the outage, and the counters were
 * shared through Redis again once it was back.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../service-fixture.mjs';
import {
  loop,
  msPercentile,
  readinessProbe,
  ROOT,
  runAlone,
  sleep,
  startFaultService,
  statuses,
  timed,
  timedLogin,
} from './fault-support.mjs';

const LANES = 4;
const WARM_MS = 3_000;
const OUTAGE_MS = 6_000;
const LOGIN_LIMIT = 5;

async function startRedis(port) {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await waitForPort(port);
  const { Redis } = createRequire(join(ROOT, 'package.json'))('ioredis');
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  client.on('error', () => undefined);
  await client.connect();
  return {
    client,
    kill: async () => {
      client.disconnect();
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

async function waitForPort(port) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`redis-server did not listen on ${port}`);
}

export default async function run() {
  const port = await freePort();
  let redis = await startRedis(port);
  const service = await startFaultService('redis', {
    REDIS_URL: `redis://127.0.0.1:${port}`,
    LOGIN_RATE_LIMIT: String(LOGIN_LIMIT),
    // The limit checks below fail logins from this one address on purpose.
    LOGIN_CLIENT_RATE_LIMIT: '100000',
  });
  const base = service.base;
  try {
    const { token } = service.tenant;
    const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const login = () => timedLogin(base);
    let carts = 0;
    const cart = async () => {
      const created = await timed(`${base}/v1/carts/new`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ reference: `fault-${carts++}` }),
      });
      if (created.status !== 201) return created;
      const id = JSON.parse(created.text).data.cart_id;
      return timed(`${base}/v1/carts/${id}`, { headers: auth });
    };
    /** Failed logins of a fresh email until refused: true when the LOGIN_LIMIT+1-th is 429. */
    const limitHolds = async (email) => {
      const attempts = [];
      for (let i = 0; i <= LOGIN_LIMIT; i++) {
        const res = await timedLogin(base, { email, password: 'not-the-password-at-all' });
        attempts.push(res.status);
      }
      return attempts.slice(0, LOGIN_LIMIT).every((s) => s === 403) && attempts.at(-1) === 429;
    };
    const readiness = async () => {
      const probe = await readinessProbe(base);
      let mode = null;
      try {
        mode = JSON.parse(probe.text).data?.rate_limits ?? null;
      } catch {
        mode = null;
      }
      return { ...probe, mode };
    };

    let stop = false;
    const logins = [];
    const cartResults = [];
    const probes = [];
    const lanes = Promise.all([
      loop(LANES / 2, login, () => stop, logins),
      loop(LANES / 2, cart, () => stop, cartResults),
      loop(1, readiness, () => stop, probes),
    ]);
    await sleep(WARM_MS);
    const before = await limitHolds('before@faults.test');
    await redis.kill();
    const killedAt = Date.now();
    await sleep(500);
    const during = await limitHolds('during@faults.test');
    const fallbackSeen = probes.some((p) => p.at > killedAt && p.mode === 'per-process');
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - killedAt)));
    redis = await startRedis(port);
    const backAt = Date.now();
    let sharedAgainAt = null;
    while (sharedAgainAt === null && Date.now() - backAt < 15_000) {
      await sleep(100);
      sharedAgainAt = probes.find((p) => p.at > backAt && p.mode === 'shared')?.at ?? null;
    }
    const after = await limitHolds('after@faults.test');
    const keysInRedis = (await redis.client.keys('*after@faults.test*')).length;
    await sleep(1_000);
    stop = true;
    await lanes;
    const outage = (results) => results.filter((r) => r.at >= killedAt && r.at <= backAt);
    const figures = {
      outage_ms: backAt - killedAt,
      readiness: statuses(probes),
      readiness_during_outage: statuses(outage(probes)),
      fallback_reported: fallbackSeen,
      logins: statuses(logins),
      logins_during_outage: statuses(outage(logins)),
      login_p99_ms: msPercentile(logins, 99),
      cart_requests: statuses(cartResults),
      cart_requests_during_outage: statuses(outage(cartResults)),
      limit_held_before: before,
      limit_held_during: during,
      limit_held_after: after,
      shared_again_ms_after_return: sharedAgainAt === null ? null : sharedAgainAt - backAt,
      limit_keys_in_redis_after: keysInRedis,
    };
    const allOk = (results, ok) => results.length > 0 && results.every((r) => r.status === ok);
    const passed =
      allOk(probes, 200) &&
      allOk(logins, 201) &&
      cartResults.length > 0 &&
      cartResults.every((r) => r.status >= 200 && r.status < 300) &&
      outage(logins).length > 0 &&
      fallbackSeen &&
      before &&
      during &&
      after &&
      sharedAgainAt !== null &&
      keysInRedis > 0;
    return { name: 'redis-kill', passed, figures };
  } finally {
    await service.stop();
    await redis.kill().catch(() => undefined);
  }
}

await runAlone(import.meta.url, run);
