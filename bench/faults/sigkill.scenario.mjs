/**
 * SIGKILL during an add burst with Idempotency-Keys (issue goal "SIGKILL"), on SQLite and
 * on PostgreSQL: the built service is killed 4 times while lanes add lines to as many
 * carts (so that their transactions run side by side), each line with its own key, and restarted on the same storage. Every key is then sent
 * again at once, and again after the abandonment window (IDEMPOTENCY_ABANDONED_AFTER_MS,
 * shortened here). Passes when, on both databases, every key ends with exactly one line
 * (0 duplicates), every acknowledged line is in its cart (0 lost), and every retry
 * answers 201 with the first answer's line.
 *
 * Alone: `npm run build && node bench/faults/sigkill.scenario.mjs` (options by
 * environment: SIGKILL_KEYS, SIGKILL_LANES, SIGKILL_DATABASES=sqlite,postgres,
 * PG_ADMIN_URL, SIGKILL_PG_DELAY_MS: PostgreSQL's replies reach the service through a
 * proxy that delays them, default 30 ms, which widens the window between a commit and
 * the service learning of it). Part of `node bench/faults/run.mjs` too.
 */
import { connect, createServer } from 'node:net';
import {
  BENCH_SERVICE_ENV,
  benchTenant,
  call,
  data,
  startService,
  uploadModel,
} from '../service-fixture.mjs';
import { pricedSizeModel } from './fault-models.mjs';
import {
  PG_ADMIN_URL,
  pgBehindProxy,
  ROOT,
  runAlone,
  scratchDir,
  sleep,
} from './fault-support.mjs';

const KILLS = 4;
const ABANDONED_AFTER_MS = 1000;

const MODEL = JSON.stringify(pricedSizeModel('CRASH', 'Crash model'));

/** The service on `storage`, with keys abandoned after a second and room for the burst. */
function serviceEnv(storage) {
  return {
    ...BENCH_SERVICE_ENV,
    ...storage.env,
    IDEMPOTENCY_ABANDONED_AFTER_MS: String(ABANDONED_AFTER_MS),
    CART_MAX_LINES: '100000',
    CLIENT_IN_FLIGHT_LIMIT: '1000',
    LOGIN_RATE_LIMIT: '1000',
  };
}

/**
 * A TCP proxy to `host:port` that hands the server's bytes on `delayMs` late (in order):
 * a COMMIT's acknowledgement reaches the service that much after the database made it
 * durable, so a kill lands between the two far more often than on a fast local socket.
 */
async function delayingProxy(host, port, delayMs) {
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(port, host);
    sockets.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) =>
      setTimeout(() => {
        if (!client.destroyed) client.write(chunk);
      }, delayMs),
    );
    client.on('close', close).on('error', close);
    upstream.on('close', () => setTimeout(close, delayMs + 5)).on('error', close);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    port: server.address().port,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      server.close();
    },
  };
}

async function storageOf(database, pgAdminUrl, pgDelayMs) {
  if (database === 'postgres') {
    const pg = await pgBehindProxy(
      'bench_sigkill',
      (host, port) => delayingProxy(host, port, pgDelayMs),
      pgAdminUrl,
    );
    return { env: { DATABASE_URL: pg.url }, drop: pg.drop };
  }
  const dir = scratchDir('bench-sigkill');
  return { env: { DATA_DIR: dir.path }, drop: async () => dir.remove() };
}

/** One add with its key; status 0 when the service gave no answer (killed, or starting). */
async function add(state, key) {
  try {
    const res = await call(state.base, 'POST', '/v1/carts', {
      token: state.token,
      headers: { 'Idempotency-Key': key },
      body: state.bodies[Number(key.split('-').at(-1)) % state.bodies.length],
    });
    const lineId = res.status === 201 ? JSON.parse(res.text).data.id : null;
    return {
      status: res.status,
      lineId,
      replayed: res.headers.get('idempotent-replayed') === 'true',
    };
  } catch {
    return { status: 0, lineId: null, replayed: false };
  }
}

/** Every line id of the cart, page by page. */
async function cartLineIds(base, token, cartId) {
  const ids = [];
  for (let page = 1; ; page += 1) {
    const detail = await data(
      base,
      'GET',
      `/v1/carts/${cartId}?page=${page}&per_page=50&view=compact`,
      {
        token,
      },
    );
    ids.push(...detail.lines.map((line) => line.id));
    if (detail.lines.length < 50) return ids;
  }
}

async function scenarioOn(database, { keys, lanes, pgAdminUrl, pgDelayMs }) {
  const storage = await storageOf(database, pgAdminUrl, pgDelayMs);
  const env = serviceEnv(storage);
  let service = await startService(ROOT, env);
  try {
    const tenant = await benchTenant(service.base);
    const modelId = await uploadModel(service.base, tenant.token, tenant.supplier.id, MODEL);
    const carts = [];
    for (let i = 0; i < lanes; i += 1) {
      const cart = await data(service.base, 'POST', '/v1/carts/new', {
        token: tenant.token,
        body: JSON.stringify({ reference: `sigkill-${i}` }),
      });
      carts.push(cart.cart_id);
    }
    const state = {
      base: service.base,
      token: tenant.token,
      bodies: carts.map((cartId) =>
        JSON.stringify({
          cart_id: cartId,
          model_id: modelId,
          company_id: tenant.company.id,
          questions: { size: { values: ['l'] } },
        }),
      ),
    };
    /** Per key: the line id of each 201, and the statuses. */
    const outcomes = new Map();
    const note = (key, result) => {
      const entry = outcomes.get(key) ?? { lineIds: new Set(), statuses: [], firstOk: null };
      entry.statuses.push(result.status);
      if (result.status === 201) entry.firstOk ??= result;
      if (result.lineId !== null) entry.lineIds.add(result.lineId);
      outcomes.set(key, entry);
    };
    const pending = Array.from({ length: keys }, (_, i) => `sigkill-${database}-${i}`);
    let restarting = false;
    let noAnswer = 0;
    let killsDuringBurst = 0;
    let answeredSinceStart = 0;
    // The burst: each lane takes the next key, and puts it back when it got no answer.
    const lane = async () => {
      while (pending.length > 0) {
        if (restarting) {
          await sleep(50);
          continue;
        }
        const key = pending.shift();
        const result = await add(state, key);
        note(key, result);
        if (result.status === 201) answeredSinceStart += 1;
        if (result.status === 0) {
          noAnswer += 1;
          pending.push(key);
        } else if (result.status !== 201) pending.push(key);
      }
    };
    // The killer: a SIGKILL every so often while the burst runs, and a restart.
    const killer = async () => {
      for (let kill = 0; kill < KILLS; kill += 1) {
        // Once the restarted service is warm (its model compiled, lines flowing), so that
        // the kill lands in the adds' database work rather than in the first compile.
        while (answeredSinceStart < lanes && pending.length > 0) await sleep(20);
        await sleep(Math.floor(Math.random() * 200));
        restarting = true;
        if (pending.length > 0) killsDuringBurst += 1;
        service.child.kill('SIGKILL');
        await new Promise((resolve) => service.child.once('exit', resolve));
        service = await startService(ROOT, env);
        state.base = service.base;
        answeredSinceStart = 0;
        restarting = false;
      }
    };
    const burstStarted = Date.now();
    await Promise.all([killer(), ...Array.from({ length: lanes }, lane)]);
    const burstMs = Date.now() - burstStarted;
    const acknowledged = [...outcomes.values()].filter((o) => o.lineIds.size > 0).length;
    // Keys whose request was killed before it answered: committed (the retry replayed) or
    // not (the retry ran it).
    const killed = [...outcomes.values()].filter((o) => o.statuses.includes(0));
    const committedUnanswered = killed.filter((o) => o.firstOk?.replayed === true).length;

    // Retries: every key again at once, then again after the abandonment window.
    const retry = async (phase) => {
      const counts = { replayed: 0, not_201: 0 };
      for (const key of outcomes.keys()) {
        const result = await add(state, key);
        note(key, result);
        if (result.status !== 201) counts.not_201 += 1;
        else if (result.replayed) counts.replayed += 1;
      }
      return { phase, ...counts };
    };
    const immediate = await retry('immediate');
    await sleep(ABANDONED_AFTER_MS + 500);
    const late = await retry('after_abandonment_window');

    const inCart = new Set();
    for (const cartId of carts)
      for (const id of await cartLineIds(state.base, tenant.token, cartId)) inCart.add(id);
    let duplicates = 0;
    let lost = 0;
    for (const { lineIds } of outcomes.values()) {
      duplicates += Math.max(0, lineIds.size - 1);
      for (const id of lineIds) if (!inCart.has(id)) lost += 1;
    }
    // Lines no key answered with (a second line for a key whose answer was never seen).
    const answered = new Set([...outcomes.values()].flatMap((o) => [...o.lineIds]));
    const unanswered = [...inCart].filter((id) => !answered.has(id)).length;
    const figures = {
      database,
      ...(database === 'postgres' ? { pg_reply_delay_ms: pgDelayMs } : {}),
      keys,
      lanes,
      kills: KILLS,
      kills_during_burst: killsDuringBurst,
      killed_in_flight: killed.length,
      committed_but_unanswered: committedUnanswered,
      burst_ms: burstMs,
      no_answer_during_burst: noAnswer,
      acknowledged_during_burst: acknowledged,
      lines_in_carts: inCart.size,
      duplicates: duplicates + unanswered,
      lost_acknowledged: lost,
      immediate_retries: immediate,
      late_retries: late,
    };
    const passed =
      killsDuringBurst === KILLS &&
      duplicates + unanswered === 0 &&
      lost === 0 &&
      inCart.size === keys &&
      immediate.not_201 === 0 &&
      late.not_201 === 0 &&
      late.replayed === keys;
    return { passed, figures };
  } finally {
    await service.stop().catch(() => undefined);
    await storage.drop().catch(() => undefined);
  }
}

export default async function run(options = {}) {
  const databases = (options.databases ?? process.env.SIGKILL_DATABASES ?? 'sqlite,postgres').split(
    ',',
  );
  const settings = {
    keys: Number(options.keys ?? process.env.SIGKILL_KEYS ?? 200),
    lanes: Number(options.lanes ?? process.env.SIGKILL_LANES ?? 16),
    pgDelayMs: Number(options.pgDelayMs ?? process.env.SIGKILL_PG_DELAY_MS ?? 30),
    pgAdminUrl: options.pgAdminUrl ?? PG_ADMIN_URL,
  };
  const runs = [];
  for (const database of databases) runs.push(await scenarioOn(database, settings));
  return {
    name: 'sigkill',
    passed: runs.every((r) => r.passed),
    figures: runs.map((r) => ({ passed: r.passed, ...r.figures })),
  };
}

await runAlone(import.meta.url, run);
