#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ and records when (dist/.build-stamp), and
// bundles the browser pages (web/) into dist/app (scripts/build-web.mjs).
// `--if-stale` (npm start's prestart, tests that run the built server): compiles only
// when a source, tsconfig or the lockfile changed since that stamp, so a start with a
// current build does not spend ~20 s in tsc.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb, newest, webIsStale } from './build-web.mjs';
import { removeOrphans } from './remove-orphans.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
// examples/window.yaml is Swagger UI's upload example (src/models/upload/window-example.ts).
const example = join('examples', 'window.yaml');
const inputs = [
  'src',
  example,
  'ormconfig.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
];

const ifStale = process.argv.includes('--if-stale');
/** Whether src/ needs tsc: always without --if-stale, else when a source is newer than the stamp. */
function serverIsStale() {
  if (!ifStale || !existsSync(stamp)) return true;
  const sources = Math.max(...inputs.map((input) => newest(join(root, input))));
  return sources >= statSync(stamp).mtimeMs;
}

if (serverIsStale()) {
  if (ifStale) console.error('build: dist/ is missing or older than its sources; compiling');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  removeOrphans(join(root, 'dist', 'src'), join(root, 'src'));
  mkdirSync(join(root, 'dist', 'examples'), { recursive: true });
  copyFileSync(join(root, example), join(root, 'dist', example));
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
if (!ifStale || webIsStale()) await buildWeb();
