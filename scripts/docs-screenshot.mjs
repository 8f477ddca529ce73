// Makes docs/configurator.png, the README's picture of the configure page, from the current
// pages: builds them, runs the browser test that shows the window with an unavailable colour
// and the offer of the nearest valid configuration (test/e2e/browser-pages.e2e.test.ts keeps
// that view in test-artifacts/screenshots/configurator-offer.png, as every CI run does), and
// copies it. Needs Chromium (/usr/bin/chromium or CHROMIUM_PATH).
//   node scripts/docs-screenshot.mjs
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shot = join(root, 'test-artifacts', 'screenshots', 'configurator-offer.png');
const target = join(root, 'docs', 'configurator.png');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
    process.exit(1);
  }
}

// A screenshot left by an earlier run must not pass for this one.
rmSync(shot, { force: true });
run('npm', ['run', 'build']);
run('npx', [
  'vitest',
  'run',
  'test/e2e/browser-pages.e2e.test.ts',
  '-t',
  'resolves a conflict through the offer',
]);
if (!existsSync(shot)) {
  console.error(`no ${shot}: was the browser test skipped (no Chromium)?`);
  process.exit(1);
}
copyFileSync(shot, target);
console.log(`docs/configurator.png: ${statSync(target).size} bytes, from ${shot}`);
