import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../support/examples.js';
import { ensurePagesBuilt } from '../support/pages.js';
import { createTestApp, listenOnFreePort, type TestContext } from '../support/test-app.js';

const APP_DIR = join(REPO_DIR, 'dist', 'app');

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The answer's bytes as sent (no client decoding them). */
function rawGet(base: string, path: string, acceptEncoding: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    get(`${base}${path}`, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  return answer.body;
}

describe('the page files are sent precompressed: brotli never larger than gzip (docs/adr/0202)', () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    ensurePagesBuilt();
    ctx = await createTestApp();
    base = await listenOnFreePort(ctx);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  const assets = () =>
    readdirSync(APP_DIR)
      .filter((name) => !name.startsWith('.') && !/\.(br|gz)$/.test(name))
      .map((name) => [`/app/${name}`, name] as const)
      .concat([['/app/', 'index.html']]);

  it('for every static asset, the br answer is at most the gzip one, and both are the file', async () => {
    expect(assets().length).toBeGreaterThanOrEqual(6);
    for (const [path, name] of assets()) {
      const file = readFileSync(join(APP_DIR, name));
      const br = await rawGet(base, path, 'gzip, deflate, br');
      const gzip = await rawGet(base, path, 'gzip');
      const identity = await rawGet(base, path, 'identity');
      expect([br.status, gzip.status, identity.status], path).toEqual([200, 200, 200]);
      expect(br.body.length, path).toBeLessThanOrEqual(gzip.body.length);
      expect(gzip.body.length, path).toBeLessThanOrEqual(identity.body.length);
      for (const answer of [br, gzip, identity])
        expect(decoded(answer).equals(file), path).toBe(true);
      if (file.length >= 1024) {
        expect(br.headers['content-encoding'], path).toBe('br');
        expect(gzip.headers['content-encoding'], path).toBe('gzip');
        expect(identity.headers['content-encoding'], path).toBeUndefined();
        // Precompressed at the highest levels: brotli 11 beats gzip 9 by several percent.
        expect(br.body.length, path).toBeLessThan(0.95 * gzip.body.length);
        expect(br.headers['content-type'], path).toBe(identity.headers['content-type']);
        expect(br.headers.vary, path).toMatch(/Accept-Encoding/i);
        expect(br.headers['content-length'], path).toBe(String(br.body.length));
        expect(br.headers.etag, path).not.toBe(gzip.headers.etag);
      }
    }
  });

  it('keeps each file’s headers and revalidation on its compressed copies', async () => {
    const { script } = JSON.parse(readFileSync(join(APP_DIR, 'embed.json'), 'utf8')) as {
      script: string;
    };
    const hashed = await rawGet(base, `/app/${script}`, 'br');
    expect(hashed.headers['content-encoding']).toBe('br');
    expect(hashed.headers['content-type']).toMatch(/javascript/);
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const pages = await rawGet(base, '/app/app.js', 'br');
    expect(pages.headers['cache-control']).toBe('no-cache');
    const again = await new Promise<number>((resolve, reject) => {
      get(
        `${base}/app/app.js`,
        { headers: { 'Accept-Encoding': 'br', 'If-None-Match': String(pages.headers.etag) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      ).on('error', reject);
    });
    expect(again).toBe(304);
  });

  it('still compresses API answers on the fly (the fast levels)', async () => {
    const spec = await rawGet(base, '/docs-json', 'br');
    expect(spec.status).toBe(200);
    expect(spec.headers['content-encoding']).toBe('br');
  });
});
