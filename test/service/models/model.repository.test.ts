import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_CHUNK_BYTES } from '../../../src/models/asset-bytes.repository.js';
import { ModelRepository } from '../../../src/models/model.repository.js';
import { CodeTakenError, type NewVersion } from '../../../src/models/version-writes.repository.js';
import {
  deflateDefinition,
  inflateDefinitionSync,
} from '../../../src/engine-runtime/definition-bytes.js';
import { createServiceContext, type ServiceContext } from '../../support/service-context.js';
import { createServiceWorld, type ServiceWorld } from '../../support/service-world.js';

/** An image as a version stores it: its bytes, hash and size. */
function assetOf(bytes: Buffer, contentType: string) {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { bytes, contentType, sha256, size: bytes.length };
}

/** ModelRepository's conditional writes, on whichever database DATABASE_URL names. */
describe('ModelRepository', () => {
  let ctx: ServiceContext;
  let models: ModelRepository;
  let w: ServiceWorld;

  beforeAll(async () => {
    ctx = await createServiceContext();
    models = ctx.get(ModelRepository);
    w = await createServiceWorld(ctx);
  });
  afterAll(() => ctx?.close());

  const version = (createdById: number, at = new Date()): NewVersion => ({
    definition: deflateDefinition(JSON.stringify({ general: { name: 'Stored' } })),
    sourceFormat: 'json',
    assets: new Map([['img/a.svg', assetOf(Buffer.from('<svg/>'), 'image/svg+xml')]]),
    createdById,
    createdAt: at,
  });
  const identity = (code: string | null) => ({ name: 'Stored', code, general: { name: 'Stored' } });

  it('stores version n+1 only from the version it was read at', async () => {
    const model = await models.findById(w.modelM);
    if (!model) throw new Error('model M is missing');
    expect(await models.storeNextVersion(model, identity(null), version(w.sam.userId))).toBe(true);
    // The same (now stale) row again: the conditional update matches nothing.
    expect(await models.storeNextVersion(model, identity(null), version(w.sam.userId))).toBe(false);
    const current = await models.findById(w.modelM);
    expect(current?.versionNumber).toBe(model.versionNumber + 1);
    expect(await models.findDefinition(w.modelM, model.versionNumber + 1)).toBeDefined();
    const asset = await models.findAsset(w.modelM, model.versionNumber + 1, 'img/a.svg');
    expect(asset?.contentType).toBe('image/svg+xml');
  });

  it('stores an image once in chunks by its hash, whichever versions ship it', async () => {
    const bytes = randomBytes(2 * ASSET_CHUNK_BYTES + 1000);
    const image = assetOf(bytes, 'image/png');
    const shipping = (): NewVersion => ({
      ...version(w.sam.userId),
      assets: new Map([
        ['img/big.png', image],
        ['img/same.png', image],
      ]),
    });
    const first = await models.createWithVersion(
      w.supplierS,
      identity(`IMG-A-${Date.now()}`),
      shipping(),
    );
    const second = await models.createWithVersion(
      w.supplierS,
      identity(`IMG-B-${Date.now()}`),
      shipping(),
    );
    for (const model of [first, second]) {
      const row = await models.findAsset(model.id, 1, 'img/same.png');
      expect(row).toMatchObject({ sha256: image.sha256, size: bytes.length });
    }
    const chunks: Buffer[] = [];
    for (let seq = 0; ; seq++) {
      const chunk = await models.findAssetChunk(image.sha256, seq);
      if (chunk === null) break;
      chunks.push(chunk);
    }
    expect(chunks.map((chunk) => chunk.length)).toEqual([
      ASSET_CHUNK_BYTES,
      ASSET_CHUNK_BYTES,
      1000,
    ]);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('refuses a code another model of the supplier uses', async () => {
    const taken = `CODE-${Date.now()}`;
    await models.createWithVersion(w.supplierS, identity(taken), version(w.sam.userId));
    await expect(
      models.createWithVersion(w.supplierS, identity(taken), version(w.sam.userId)),
    ).rejects.toBeInstanceOf(CodeTakenError);
    // Another supplier may use it.
    const other = await models.createWithVersion(
      w.supplierT,
      identity(taken),
      version(w.sam.userId),
    );
    expect(other.versionNumber).toBe(1);
  });

  it('holds the edit lock for one user until released; a held lock blocks versions', async () => {
    const now = new Date();
    expect(await models.tryLock(w.modelM, w.sam.userId, now)).toBe(true);
    expect(await models.tryLock(w.modelM, w.sam.userId, now)).toBe(true);
    expect(await models.tryLock(w.modelM, w.alice.userId, now)).toBe(false);
    const locked = await models.findById(w.modelM);
    if (!locked) throw new Error('model M is missing');
    expect(await models.storeNextVersion(locked, identity(null), version(w.alice.userId))).toBe(
      false,
    );
    await models.unlock(w.modelM, w.sam.userId);
    expect(await models.tryLock(w.modelM, w.alice.userId, now)).toBe(true);
    await models.unlock(w.modelM, w.alice.userId);
  });

  it('merges only the current versions of the same supplier', async () => {
    const { versions, assets } = await models.currentVersionsOf([w.modelM, w.modelN], w.supplierS);
    expect(versions.map((row) => row.modelId)).toEqual([w.modelM]);
    // The definition as stored: deflated JSON.
    const text = inflateDefinitionSync(versions[0].definition);
    expect(JSON.parse(text)).toHaveProperty('general');
    expect(assets.every((row) => row.modelId === w.modelM)).toBe(true);
    expect(await models.currentVersionsOf([], w.supplierS)).toEqual({ versions: [], assets: [] });
  });
});
