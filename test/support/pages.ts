import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_DIR } from './examples.js';

/** Bundles web/ into dist/app unless it is current (what npm run build does too). */
export function ensurePagesBuilt(): void {
  execFileSync(process.execPath, [join(REPO_DIR, 'scripts', 'build-web.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
}
