import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Whether better-sqlite3, as compiled here, survives the garbage collection of a statement.
 *
 * Node 24.19 changed `node::ObjectWrap` (node_object_wrap.h): its destructor now removes an
 * environment cleanup hook, which needs the isolate's current context. An addon compiled
 * against those headers (better-sqlite3 12, whose Statement is an ObjectWrap) is destroyed
 * by a scavenge with no context entered, and the process aborts:
 * `Assertion failed: (env) != nullptr` in `node::RemoveEnvironmentCleanupHook`
 * (WiseLibs/better-sqlite3#1515, closed unfixed). Any statement that becomes garbage (a
 * pragma, one TypeORM drops from its cache) can kill the service at a random moment. The
 * same addon compiled against Node ≤ 24.18 headers runs on any Node 24 without it.
 *
 * The probe runs the failure in a child process (a few statements dropped, then enough
 * allocation for scavenges): ~0.1 s, only on Node versions that have the change
 * (docs/adr/0048-node-pin-and-sqlite-gc-probe.md).
 */
const PROBE = `
const Database = require(process.argv[1]);
const db = new Database(':memory:');
for (let i = 0; i < 8; i++) db.prepare('SELECT ' + i).get();
let garbage = [];
for (let i = 0; i < 2e6; i++) { garbage.push({ i }); if (garbage.length > 5e4) garbage = []; }
db.close();
`;

/** Node versions whose headers have the ObjectWrap change: 24.19 and later. */
export function sqliteGcProbeNeeded(version: string = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 24 || (major === 24 && minor >= 19);
}

export interface SqliteGcProbeResult {
  ok: boolean;
  /** How the probe ended: `ok`, or its signal or exit code and what its stderr said. */
  detail: string;
}

/** The better-sqlite3 the service loads (TypeORM requires it by name from here). */
function installedAddon(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}

/** Runs the probe with `node` against the better-sqlite3 module at `addon`. */
export function probeSqliteGc(
  addon: string = installedAddon(),
  node: string = process.execPath,
): SqliteGcProbeResult {
  const run = spawnSync(node, ['-e', PROBE, addon], {
    encoding: 'utf8',
    timeout: 30_000,
    // Not the service's NODE_OPTIONS (preloads, inspector): only the addon is on trial.
    env: { PATH: process.env.PATH ?? '' },
  });
  if (run.status === 0) return { ok: true, detail: 'ok' };
  const ending = run.signal ? `killed by ${run.signal}` : `exit code ${run.status}`;
  const said = telling(run.stderr ?? '');
  return { ok: false, detail: said ? `${ending}: ${said}` : ending };
}

/** The lines of stderr that say what went wrong (an assertion, an error), else its start. */
function telling(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const messages = lines.filter((line) => /Assertion|Error/.test(line));
  return (messages.length > 0 ? messages : lines).slice(0, 2).join(' ');
}

/** What the service (fatal line) and the CLI (error) say when the probe fails. */
export const SQLITE_GC_PROBLEM =
  'better-sqlite3 aborts the process when a statement is garbage-collected: it was compiled ' +
  'against Node >= 24.19 headers. Rebuild it against Node 24.18.1 headers or run on ' +
  'Node 24.18.1 or 22 (docs/OPERATIONS.md, "SQLite on Node 24"), or set DATABASE_URL';

/**
 * The probe's detail when SQLite must not be used with this Node and this build; null
 * when the Node version does not need the probe or the probe passes.
 */
export function sqliteGcFailure(): string | null {
  if (!sqliteGcProbeNeeded()) return null;
  const probe = probeSqliteGc();
  return probe.ok ? null : probe.detail;
}
