/**
 * The suite's files share a module registry per fork (docs/adr/0210): a file that mocks a
 * module with `vi.mock` must load what it tests afresh (`vi.resetModules()`, then a dynamic
 * import), or it tests whatever an earlier file of the same fork loaded, unmocked; and it
 * undoes its mocks and resets the registry after its tests (`vi.doUnmock`, `vi.resetModules()`
 * in `afterAll`), or a later file gets modules it loaded bound to a mocked (and so another)
 * instance of the engine, whose sentinels its own models do not share.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const TEST_ROOT = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('test files that mock modules', () => {
  it('reset the module registry, import what they test afresh and undo their mocks', () => {
    const mocking = testFiles(TEST_ROOT).filter(
      (file) => file !== import.meta.filename && readFileSync(file, 'utf8').includes('vi.mock('),
    );
    expect(mocking.length).toBeGreaterThan(0);
    const careless = mocking.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return (
        !text.includes('vi.resetModules()') ||
        !text.includes('await import(') ||
        !/afterAll\(\(\) => \{\s*(vi\.doUnmock\([^)]*\);\s*)+vi\.resetModules\(\);/.test(text)
      );
    });
    expect(careless.map((file) => relative(TEST_ROOT, file))).toEqual([]);
  });
});
