import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { firstRow, fixedSql } from '../database/fixed-sql.js';

/**
 * The bytes of model assets (images), content-addressed: `asset_chunks` rows of
 * ASSET_CHUNK_BYTES keyed by the content's SHA-256 and their position (migration
 * 1764916000000, docs/adr/0162-asset-bytes-in-chunks.md). An image is written once
 * whatever the number of versions and models that ship it, and served chunk by chunk: no
 * request holds a whole image. Raw SQL: the binary column type differs per driver
 * (blob / bytea). Used by ModelRepository and version-writes.repository.ts only.
 */
type Queryable = DataSource | EntityManager;

/** Bytes per stored chunk: what one request holds of an image at a time. */
export const ASSET_CHUNK_BYTES = 64 * 1024;

const sqlFor = (db: Queryable, sql: string): string =>
  fixedSql('dataSource' in db ? db.dataSource : db, sql);

/** How many chunks an image of `size` bytes is stored in (an empty image: one, empty). */
export const chunkCount = (size: number): number =>
  Math.max(1, Math.ceil(size / ASSET_CHUNK_BYTES));

/**
 * Stores an image's bytes under its hash unless they are stored already. A concurrent
 * upload of the same image writes the same rows: the conflict is ignored. Each chunk is
 * its own statement, with a turn of the event loop between them, so a large image never
 * holds the loop for its whole write (SQLite's driver is synchronous).
 */
export async function storeAssetBytes(
  db: Queryable,
  sha256: string,
  bytes: Uint8Array,
): Promise<void> {
  const stored: unknown[] = await db.query(
    sqlFor(db, 'SELECT 1 FROM "asset_chunks" WHERE "sha256" = $1 AND "seq" = 0'),
    [sha256],
  );
  if (stored.length > 0) return;
  const insert = sqlFor(
    db,
    'INSERT INTO "asset_chunks" ("sha256", "seq", "bytes") VALUES ($1, $2, $3) ' +
      'ON CONFLICT DO NOTHING',
  );
  for (let seq = 0; seq < chunkCount(bytes.byteLength); seq++) {
    const start = seq * ASSET_CHUNK_BYTES;
    const chunk = bytes.subarray(start, Math.min(start + ASSET_CHUNK_BYTES, bytes.byteLength));
    await db.query(insert, [
      sha256,
      seq,
      Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length),
    ]);
    await nextTurn();
  }
}

/**
 * The bytes of a version's new images, before (outside) the version's transaction: on
 * SQLite a transaction must not yield to the event loop (every request shares its one
 * connection), and the chunks' writes do. Content-addressed, so writing them early is
 * harmless: a version refused afterwards leaves chunks no row names (never served; reused
 * by the next upload of the same image).
 */
export async function storeNewAssetBytes(
  dataSource: DataSource,
  assets: Iterable<{ sha256: string; bytes?: Uint8Array }>,
): Promise<void> {
  for (const asset of assets)
    if (asset.bytes !== undefined) await storeAssetBytes(dataSource, asset.sha256, asset.bytes);
}

/** One chunk of a stored image, or null when there is no such chunk (a fixed point query). */
export async function loadAssetChunk(
  dataSource: DataSource,
  sha256: string,
  seq: number,
): Promise<Buffer | null> {
  const row = await firstRow<{ bytes: Uint8Array }>(
    dataSource,
    sqlFor(dataSource, 'SELECT "bytes" FROM "asset_chunks" WHERE "sha256" = $1 AND "seq" = $2'),
    [sha256, seq],
  );
  if (row === null) return null;
  return Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes);
}
