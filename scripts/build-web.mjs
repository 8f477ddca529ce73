// The browser pages (web/): bundled by esbuild into dist/app/, which the service serves
// at /app (src/web/static-pages.ts). Two bundles: app.js (the pages, an ES module) and
// product-configurator.js (the embeddable element alone, a classic script, so that a shop
// page on another origin may load it without CORS). The element is also written under a
// content-hashed name (product-configurator.<hash>.js, named in embed.json), which the
// service serves with a year's cache. Budgets (gzip): 80 kB for the pages, 40 kB for the
// element; the build fails past them. Every text file from 1 KB on is also written
// precompressed, brotli at quality 11 (.br) and gzip at level 9 (.gz), which the service
// sends by Accept-Encoding instead of compressing it on each request (docs/adr/0202).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIR = join(root, 'web');
export const APP_OUT = join(root, 'dist', 'app');
/** gzip budgets, bytes, by bundle. */
export const BUNDLE_BUDGETS = { 'app.js': 80 * 1024, 'product-configurator.js': 40 * 1024 };
/** The element's content-hashed name: product-configurator.<10 hex>.js. */
export const HASHED_ELEMENT = /^product-configurator\.[0-9a-f]{10}\.js$/;
const stamp = join(APP_OUT, '.build-stamp');
/** Precompressed beside each file: the encoding's suffix, by Content-Encoding. */
export const PRECOMPRESSED = { br: '.br', gzip: '.gz' };
/** Files written precompressed: text, from the size the service compresses answers at. */
const COMPRESSIBLE = /\.(js|html|json|css|svg)$/;
const COMPRESS_FROM_BYTES = 1024;

/** The newest modification time under `path` (directories count: a deleted file changes them). */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

/** True when dist/app is missing or older than web/ or the lockfile. */
export function webIsStale() {
  if (!existsSync(stamp)) return true;
  const sources = Math.max(
    newest(WEB_DIR),
    newest(join(root, 'package-lock.json')),
    newest(fileURLToPath(import.meta.url)),
  );
  return sources >= statSync(stamp).mtimeMs;
}

/** gzip sizes of the bundles, bytes, by file name. */
export async function bundleSizes() {
  const sizes = {};
  for (const name of ['app.js', 'product-configurator.js']) {
    sizes[name] = gzipSync(await readFile(join(APP_OUT, name)), { level: 9 }).length;
  }
  return sizes;
}

/** The element under its content-hashed name (older ones removed), and embed.json naming it. */
function writeHashedElement() {
  const bytes = readFileSync(join(APP_OUT, 'product-configurator.js'));
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  const name = `product-configurator.${hash}.js`;
  for (const old of readdirSync(APP_OUT)) {
    if (HASHED_ELEMENT.test(old) && old !== name) unlinkSync(join(APP_OUT, old));
  }
  writeFileSync(join(APP_OUT, name), bytes);
  const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  writeFileSync(join(APP_OUT, 'embed.json'), `${JSON.stringify({ script: name, integrity })}\n`);
}

/** Each text file of 1 KB or more as .br (quality 11) and .gz (level 9); older copies removed. */
function writePrecompressed() {
  const encoded = /\.(br|gz)$/;
  for (const name of readdirSync(APP_OUT)) {
    if (encoded.test(name)) unlinkSync(join(APP_OUT, name));
  }
  for (const name of readdirSync(APP_OUT)) {
    if (!COMPRESSIBLE.test(name)) continue;
    const bytes = readFileSync(join(APP_OUT, name));
    if (bytes.length < COMPRESS_FROM_BYTES) continue;
    const brotli = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
    writeFileSync(join(APP_OUT, name + PRECOMPRESSED.br), brotli);
    writeFileSync(join(APP_OUT, name + PRECOMPRESSED.gzip), gzipSync(bytes, { level: 9 }));
  }
}

export async function buildWeb() {
  mkdirSync(APP_OUT, { recursive: true });
  const common = {
    bundle: true,
    minify: true,
    target: 'es2022',
    legalComments: 'none',
    tsconfig: join(WEB_DIR, 'tsconfig.json'),
    logLevel: 'warning',
  };
  await build({
    ...common,
    entryPoints: [join(WEB_DIR, 'src', 'app.ts')],
    outfile: join(APP_OUT, 'app.js'),
    format: 'esm',
  });
  await build({
    ...common,
    entryPoints: [join(WEB_DIR, 'src', 'embed.ts')],
    outfile: join(APP_OUT, 'product-configurator.js'),
    format: 'iife',
  });
  copyFileSync(join(WEB_DIR, 'index.html'), join(APP_OUT, 'index.html'));
  writeHashedElement();
  writePrecompressed();
  const sizes = await bundleSizes();
  for (const [name, size] of Object.entries(sizes)) {
    if (size > BUNDLE_BUDGETS[name]) {
      throw new Error(
        `web: ${name} is ${size} bytes gzip, over the ${BUNDLE_BUDGETS[name]} budget`,
      );
    }
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  if (!ifStale || webIsStale()) {
    const sizes = await buildWeb();
    const list = Object.entries(sizes).map(([n, s]) => `${n} ${(s / 1024).toFixed(1)} kB`);
    console.error(`web: dist/app built (gzip: ${list.join(', ')})`);
  }
}
