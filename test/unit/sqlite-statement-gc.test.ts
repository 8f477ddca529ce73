import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * Regression test for the abort that kept SQLite off Node >= 24.19 with better-sqlite3 12
 * (`Assertion failed: (env) != nullptr` in `node::RemoveEnvironmentCleanupHook` when a
 * scavenge collected a dropped statement; nodejs/node#65446, WiseLibs/better-sqlite3#1515).
 * better-sqlite3 13 is an N-API addon and does not hit it (docs/adr/0090). The reproduction
 * runs in a child process, since the failure is an abort of the whole process: statements
 * prepared and dropped, `pragma()` calls (each prepares and drops one), allocation for
 * scavenges and forced full collections. CI runs it on the newest Node 24 and on Node 22.14.
 */
const REPRODUCTION = `
const Database = require(process.argv[1]);
const db = new Database(':memory:');
db.exec('CREATE TABLE t (a INTEGER, b TEXT)');
let garbage = [];
for (let round = 0; round < 20; round++) {
  for (let i = 0; i < 200; i++) {
    db.prepare('SELECT ' + (round * 200 + i) + ' AS n').get();
    db.prepare('INSERT INTO t (a, b) VALUES (?, ?)').run(i, 'x' + i);
    db.pragma('user_version');
  }
  for (let i = 0; i < 2e5; i++) { garbage.push({ i }); if (garbage.length > 5e4) garbage = []; }
  globalThis.gc();
}
db.close();
process.stdout.write('survived');
`;

describe('better-sqlite3: dropped statements and garbage collection', () => {
  it('survives statement churn, pragma() calls and forced collections on this Node', () => {
    const addon = createRequire(import.meta.url).resolve('better-sqlite3');
    const run = spawnSync(process.execPath, ['--expose-gc', '-e', REPRODUCTION, addon], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect({ signal: run.signal, status: run.status, stderr: run.stderr.slice(0, 500) }).toEqual({
      signal: null,
      status: 0,
      stderr: '',
    });
    expect(run.stdout).toBe('survived');
  });
});
