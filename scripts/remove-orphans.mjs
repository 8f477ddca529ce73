// Used by scripts/build.mjs after each compile (tested in test/unit/remove-orphans.test.ts).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * tsc never deletes: output whose source was removed or renamed would stay in dist/ and
 * still import. Removes every compiled file under `out` whose `.ts` under `src` is gone,
 * and the folders whose source folder is gone.
 */
export function removeOrphans(out, src) {
  if (!existsSync(out)) return;
  for (const entry of readdirSync(out, { withFileTypes: true })) {
    const path = join(out, entry.name);
    if (entry.isDirectory()) {
      // A source folder that is gone: its whole output goes (only compiled files are here).
      if (!existsSync(join(src, entry.name))) rmSync(path, { recursive: true });
      else removeOrphans(path, join(src, entry.name));
      continue;
    }
    const source = entry.name.replace(/\.(js|js\.map|d\.ts|d\.ts\.map)$/, '.ts');
    if (source !== entry.name && !existsSync(join(src, source))) rmSync(path);
  }
}
