/** What the fault scenarios share: the service and its tenant, options, figures, timing of requests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BENCH_ADMIN,
  BENCH_SERVICE_ENV,
  benchTenant,
  pgDatabase,
  startService,
} from '../service-fixture.mjs';

/** The checkout (two levels above this file). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** PostgreSQL for the scenarios that need one (PG_ADMIN_URL, else the local server). */
export const PG_ADMIN_URL =
  process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The built service of a fault scenario: the benchmarks' environment with `env` over it,
 * its files (SQLite, unless `env` names a DATABASE_URL) in a temporary directory of its
 * own, and by default the tenant every scenario needs (`benchTenant`: the admin's token, a
 * company, a supplier). `stop()` stops the service and removes the directory.
 */
export async function startFaultService(name, env = {}, { root = ROOT, tenant = true } = {}) {
  const dataDir = scratchDir(`faults-${name}`);
  let service;
  try {
    service = await startService(root, { ...BENCH_SERVICE_ENV, DATA_DIR: dataDir.path, ...env });
  } catch (error) {
    dataDir.remove();
    throw error;
  }
  const stop = async () => {
    await service.stop();
    dataDir.remove();
  };
  try {
    return { ...service, stop, tenant: tenant ? await benchTenant(service.base) : undefined };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A temporary directory of a scenario's own (SQLite's files) and how to remove it. */
export function scratchDir(prefix) {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A PostgreSQL database of the scenario's own (PG_ADMIN_URL's server) reached through the
 * proxy `startProxy(host, port)` makes (it answers `{ port, close }`): `url` is the
 * database by the proxy; `drop()` closes the proxy and drops the database.
 */
export async function pgBehindProxy(prefix, startProxy, adminUrl = PG_ADMIN_URL) {
  const database = await pgDatabase(ROOT, adminUrl, prefix);
  const url = new URL(database.url);
  const proxy = await startProxy(url.hostname, Number(url.port || 5432));
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  const drop = async () => {
    await proxy.close();
    await database.drop();
  };
  return { url: url.toString(), proxy, drop };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A login, timed (`timed`): the bench admin's, or `credentials`. */
export const timedLogin = (base, credentials = BENCH_ADMIN) =>
  timed(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  });

/** One readiness probe, timed, then 250 ms: a `loop` lane probes four times a second. */
export async function readinessProbe(base) {
  const probe = await timed(`${base}/health/ready`);
  await sleep(250);
  return probe;
}

/** The p-th percentile (0–100) of `values`, nearest rank; null when empty. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The p-th percentile of the results' times (`timed`), whole ms. */
export const msPercentile = (results, p) =>
  Math.round(
    percentile(
      results.map((r) => r.ms),
      p,
    ),
  );

/** One fetch, timed; status 0 when it failed without an answer. Never throws. */
export async function timed(url, init = {}, timeoutMs = 60_000) {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, text, at: Date.now() };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, error: String(error), at: Date.now() };
  }
}

/**
 * Runs `once` over and over on `concurrency` lanes until `stop()` holds; every result, in
 * `results` as they come (to watch them while the loop runs) and when it ends.
 */
export async function loop(concurrency, once, stop, results = []) {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stop()) results.push(await once());
    }),
  );
  return results;
}

/** Counts of each status in `results`, as `{ "200": n, … }`. */
export function statuses(results) {
  const counts = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** `default async function run(options)` of a scenario, run when the file is run alone. */
export async function runAlone(importMetaUrl, run) {
  if (process.argv[1] !== fileURLToPath(importMetaUrl)) return;
  const result = await run({});
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.passed ? 0 : 1);
}

/**
 * The time of the first answer after `since` from which every later answer is 2xx (back for
 * good), or null.
 */
export function sustainedAfter(results, since) {
  const after = results.filter((r) => r.at >= since).sort((a, b) => a.at - b.at);
  let first = null;
  for (const result of after) {
    if (result.status >= 200 && result.status < 300) first ??= result.at;
    else first = null;
  }
  return first;
}

/** Counts of the problem codes in the answers' envelopes. */
export function errorCodes(results) {
  const counts = {};
  for (const { text, status } of results) {
    if (status === 0) {
      counts.no_answer = (counts.no_answer ?? 0) + 1;
      continue;
    }
    try {
      for (const { code } of JSON.parse(text || '{}').errors ?? [])
        counts[code] = (counts[code] ?? 0) + 1;
    } catch {
      counts.unparsable = (counts.unparsable ?? 0) + 1;
    }
  }
  return counts;
}
