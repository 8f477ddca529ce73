import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSqliteGc, sqliteGcProbeNeeded } from '../../src/database/sqlite-gc-probe.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-gc-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for the addon: a module whose statements' collection ends the process. */
function fakeAddon(name: string, body: string): string {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, body);
  return file;
}

describe('sqliteGcProbeNeeded: the Node versions whose headers changed ObjectWrap', () => {
  it('is false up to 24.18 and true from 24.19 on', () => {
    expect(sqliteGcProbeNeeded('20.20.2')).toBe(false);
    expect(sqliteGcProbeNeeded('22.21.0')).toBe(false);
    expect(sqliteGcProbeNeeded('24.18.1')).toBe(false);
    expect(sqliteGcProbeNeeded('24.19.0')).toBe(true);
    expect(sqliteGcProbeNeeded('24.21.0')).toBe(true);
    expect(sqliteGcProbeNeeded('25.0.0')).toBe(true);
  });
});

describe('probeSqliteGc', () => {
  it('passes the better-sqlite3 installed here (compiled for this Node)', () => {
    expect(probeSqliteGc()).toEqual({ ok: true, detail: 'ok' });
  });

  it('fails, with the signal and the message, when the process aborts', () => {
    const aborting = fakeAddon(
      'aborting',
      `module.exports = class {
        prepare() { process.stderr.write('Assertion failed: (env) != nullptr\\n'); process.abort(); }
      };`,
    );
    const result = probeSqliteGc(aborting);
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(/^killed by SIGABRT: .*Assertion failed: \(env\) != nullptr/);
  });

  it('fails with the exit code when the addon cannot even load', () => {
    const result = probeSqliteGc(join(dir, 'missing.cjs'));
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(/^exit code 1: .*Cannot find module/);
  });
});
