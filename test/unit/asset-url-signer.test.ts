import { createSecretKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AssetUrlSigner, assetUrlKey } from '../../src/engine-runtime/asset-url-signer.js';

const signer = new AssetUrlSigner({
  key: assetUrlKey(createSecretKey(Buffer.from('a-test-secret-that-is-long-enough-0123456789'))),
  ttlSeconds: 3600,
});
const asset = { companyId: 3, modelId: 7, versionNumber: 2, path: 'images/oak frame.svg' };
const T0 = Date.UTC(2026, 10, 27, 10, 0, 0);

/** The expiry and signature of a signed URL. */
function parts(url: string): { expires: number; signature: string } {
  const query = new URL(url, 'http://x').searchParams;
  return { expires: Number(query.get('expires')), signature: query.get('signature') ?? '' };
}

describe('AssetUrlSigner.refreshed: the URLs inside a stored line signed anew when it is read', () => {
  it('replaces an expired URL by one that opens the same file now', () => {
    const old = signer.url(asset, T0);
    const stored = Buffer.from(JSON.stringify({ images: [{ url: old, layer: 1 }], total: '1.00' }));
    const later = T0 + 3 * 3600 * 1000;
    expect(signer.refusal(asset, parts(old).expires, parts(old).signature, later)).toBe('expired');

    const read = JSON.parse(signer.refreshed(stored, later).toString('utf8')) as {
      images: { url: string; layer: number }[];
      total: string;
    };
    const fresh = read.images[0].url;
    expect(fresh).not.toBe(old);
    expect(fresh).toBe(signer.url(asset, later));
    expect(signer.refusal(asset, parts(fresh).expires, parts(fresh).signature, later)).toBeNull();
    expect(read.images[0].layer).toBe(1);
    expect(read.total).toBe('1.00');
  });

  it('gives a text without asset URLs back as it is', () => {
    const text = Buffer.from('{"images":[],"total":"1.00"}');
    expect(signer.refreshed(text, T0)).toBe(text);
  });
});
