/**
 * Click-to-update in Chromium (goal: p99 ≤ 150 ms on a model of renault-medium's size)
 * and the bundles' gzip sizes against their budgets (80 kB the pages, 40 kB the element).
 *
 *   npm run bench:ui                       # builds, then 100 clicks on the generated table car
 *   node bench/ui.bench.mjs --clicks 200 --model path/to/model.json --seed 7
 *
 * Self-contained: without --model the model is bench/generate-table-car.mjs's (148
 * questions, 426 options, 174 compatibility tables, as renault-medium; seeded by --seed).
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
import { bundleSizes, BUNDLE_BUDGETS } from '../scripts/build-web.mjs';
import { generateTableCar } from './generate-table-car.mjs';
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
const modelPath = option('model', undefined);
const clicks = Number(option('clicks', 100));
let seed = Number(option('seed', 1));
const modelText = modelPath
  ? readFileSync(resolve(modelPath), 'utf8')
  : JSON.stringify(generateTableCar(seed));
const modelName = modelPath ?? `bench/generate-table-car.mjs --seed ${seed}`;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const dataDir = mkdtempSync(join(tmpdir(), 'ui-bench-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const service = await startService(repo, { ...BENCH_SERVICE_ENV, DATA_DIR: dataDir });
const { base } = service;
const { token, company, supplier } = await benchTenant(base);
const uploadStarted = performance.now();
const modelId = await uploadModel(base, token, supplier.id, modelText, false);
console.log(
  `model ${modelName}: uploaded and compiled in ${Math.round(performance.now() - uploadStarted)} ms`,
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
  return `p50 ${at(0.5).toFixed(1)}  p90 ${at(0.9).toFixed(1)}  p99 ${at(0.99).toFixed(1)}  max ${sorted[sorted.length - 1].toFixed(1)} ms`;
};
const p99 = (values) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(0.99 * values.length))];
const configurations = await root.locator('[data-testid=configurations] strong').textContent();
console.log(`${samples.length} clicks (${configurations} configurations left at the end)`);
console.log(`click to painted update: ${stats(samples.map((s) => s.total))}`);
console.log(`  preview request:       ${stats(samples.map((s) => s.request))}`);
console.log(`  service evaluation:    ${stats(samples.map((s) => s.evaluate))}`);
console.log(`  answer to rendered:    ${stats(samples.map((s) => s.render))}`);
console.log(`  click to request sent: ${stats(samples.map((s) => s.sent))}`);
console.log(`  rendered to painted:   ${stats(samples.map((s) => s.paint))}`);
const clickP99 = p99(samples.map((s) => s.total));
console.log(
  `click-to-price p99 ${clickP99.toFixed(1)} ms (goal ≤ 150): ${clickP99 <= 150 ? 'met' : 'NOT met'}`,
);
for (const [name, size] of Object.entries(await bundleSizes())) {
  const budget = BUNDLE_BUDGETS[name];
  console.log(
    `bundle ${name}: ${(size / 1024).toFixed(1)} kB gzip (budget ${budget / 1024} kB): ${size <= budget ? 'within' : 'OVER'}`,
  );
}
await browser.close();
await service.stop();
