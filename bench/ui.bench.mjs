/**
 * Click-to-update in Chromium (issue #30's goal: ≤ 150 ms on the medium Renault model).
 *
 *   npm run bench:ui                       # builds, then 40 clicks on renault-medium
 *   node bench/ui.bench.mjs --clicks 100 --model path/to/model.json --seed 7
 *
 * The built service (its own process, SQLite in a temporary folder) with the model
 * uploaded; Debian's chromium (CHROMIUM_PATH) opens /app, signs in and configures. Each
 * click picks, with a seeded random walk, an option shown available and not selected;
 * measured inside the page from the click event's timestamp to the frame painted after
 * the configurator's `change` event (the preview answered and rendered). Reported: p50,
 * p90, max of that, and of its parts: the preview request (Resource Timing) and the
 * service's own evaluation (the line's cache.evaluated_in_ms), and the page's share: from
 * the answer's last byte to the `change` event (parsed and rendered).
 */
/* global window, document, requestAnimationFrame */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import {
  BENCH_ADMIN,
  BENCH_SERVICE_ENV,
  benchTenant,
  startService,
  uploadModel,
} from './service-fixture.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
const modelPath = resolve(
  option('model', join(repo, '..', 'shared', 'benchmarks', 'renault-medium', 'model.json')),
);
const clicks = Number(option('clicks', 40));
let seed = Number(option('seed', 1));
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const dataDir = mkdtempSync(join(tmpdir(), 'ui-bench-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const service = await startService(repo, { ...BENCH_SERVICE_ENV, DATA_DIR: dataDir });
const { base } = service;
const { token, company, supplier } = await benchTenant(base);
const uploadStarted = performance.now();
const modelId = await uploadModel(base, token, supplier.id, readFileSync(modelPath, 'utf8'), false);
console.log(
  `model ${modelPath}: uploaded and compiled in ${Math.round(performance.now() - uploadStarted)} ms`,
);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${base}/app/#model=${modelId}&company=${company.id}`);
await page.getByLabel('Email').fill(BENCH_ADMIN.email);
await page.getByLabel('Password').fill(BENCH_ADMIN.password);
await page.getByRole('button', { name: 'Sign in' }).click();
await page.locator('product-configurator .count').waitFor({ timeout: 120_000 });

// In the page: the click's timestamp, and the paint after the next `change` event.
await page.evaluate(() => {
  const w = window;
  w.__samples = [];
  document.addEventListener('click', (event) => (w.__clickAt = event.timeStamp), true);
  document.addEventListener('change', (event) => {
    const line = event.detail?.line;
    if (!line || w.__clickAt === undefined) return;
    const clickAt = w.__clickAt;
    const changedAt = performance.now();
    w.__clickAt = undefined;
    requestAnimationFrame(() =>
      setTimeout(() => {
        const previews = performance
          .getEntriesByType('resource')
          .filter((e) => e.name.endsWith('/v1/carts/preview'));
        const request = previews[previews.length - 1];
        w.__samples.push({
          total: performance.now() - clickAt,
          request: request ? request.duration : NaN,
          render: request ? changedAt - request.responseEnd : NaN,
          sent: request ? request.startTime - clickAt : NaN,
          paint: performance.now() - changedAt,
          evaluate: line.cache.evaluated_in_ms,
        });
      }, 0),
    );
  });
});

const root = page.locator('product-configurator');
for (let i = 0; i < clicks; i++) {
  const candidates = root.locator('.option:not(.unavailable) input[type=radio]:not(:checked)');
  const count = await candidates.count();
  if (count === 0) break;
  const before = await page.evaluate(() => window.__samples.length);
  await candidates.nth(Math.floor(random() * count)).click();
  await page.waitForFunction((n) => window.__samples.length > n, before, { timeout: 60_000 });
}

const samples = await page.evaluate(() => window.__samples);
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `p50 ${at(0.5).toFixed(1)}  p90 ${at(0.9).toFixed(1)}  max ${sorted[sorted.length - 1].toFixed(1)} ms`;
};
const configurations = await root.locator('[data-testid=configurations] strong').textContent();
console.log(`${samples.length} clicks (${configurations} configurations left at the end)`);
console.log(`click to painted update: ${stats(samples.map((s) => s.total))}`);
console.log(`  preview request:       ${stats(samples.map((s) => s.request))}`);
console.log(`  service evaluation:    ${stats(samples.map((s) => s.evaluate))}`);
console.log(`  answer to rendered:    ${stats(samples.map((s) => s.render))}`);
console.log(`  click to request sent: ${stats(samples.map((s) => s.sent))}`);
console.log(`  rendered to painted:   ${stats(samples.map((s) => s.paint))}`);
await browser.close();
await service.stop();
