import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeOrphans } from '../../scripts/remove-orphans.mjs';

describe('removeOrphans (npm run build)', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const touch = (...parts: string[]) => {
    const path = join(root, ...parts);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '');
    return path;
  };

  it('deletes the output of sources that are gone, and keeps the rest', () => {
    root = mkdtempSync(join(tmpdir(), 'orphans-'));
    touch('src', 'kept.ts');
    touch('src', 'feature', 'still.ts');
    const kept = ['kept.js', 'kept.js.map', 'kept.d.ts'].map((name) => touch('dist', name));
    const still = touch('dist', 'feature', 'still.js');
    const orphans = [
      touch('dist', 'gone.js'),
      touch('dist', 'gone.js.map'),
      touch('dist', 'feature', 'renamed.js'),
      touch('dist', 'feature', 'renamed.d.ts.map'),
    ];
    touch('dist', 'removed-folder', 'inner.js');
    removeOrphans(join(root, 'dist'), join(root, 'src'));
    for (const path of [...kept, still]) expect(existsSync(path), path).toBe(true);
    for (const path of orphans) expect(existsSync(path), path).toBe(false);
    expect(existsSync(join(root, 'dist', 'removed-folder'))).toBe(false);
  });

  it('does nothing before the first build', () => {
    root = mkdtempSync(join(tmpdir(), 'orphans-'));
    expect(() => removeOrphans(join(root, 'dist'), join(root, 'src'))).not.toThrow();
  });
});
