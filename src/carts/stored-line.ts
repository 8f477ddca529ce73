import { promisify } from 'node:util';
import { constants, deflate, deflateSync, inflate, inflateSync } from 'node:zlib';
import type { JsonText } from '../common/http/json-text.js';
import type { CartLineEntity } from './cart-line.entity.js';
import { lineEtag } from './line-etag.js';
import type { AssetUrlSigner } from '../models/asset-url-signer.js';
import type { EvaluatedLine } from '../models/compiled-models.service.js';
import type { LineView } from './compact-line.js';
import { lineWith } from './line-answer.js';

const inflated = promisify(inflate);
const deflated = promisify(deflate);

/** A row's snapshot columns: both views deflated, base64, and the engine version. */
export interface SnapshotColumns {
  snapshot: string;
  compactSnapshot: string;
  engineVersion: string;
}

/**
 * A view's JSON up to this size is deflated on the event loop, larger ones in zlib's
 * thread pool. An asynchronous deflate costs the event loop ~0.1–0.2 ms whatever the
 * size (a zlib stream is built, initialized and called back) and another thread its
 * work; deflateSync of 16 kB at the fastest level costs the event loop about as much,
 * and of a window-sized line (~5 + 2 kB) a fifth of the CPU of the pair in the pool
 * (docs/adr/0106-put-one-read-and-small-snapshots-inline.md).
 */
const DEFLATE_INLINE_BYTES = 16 * 1024;

const DEFLATE_OPTIONS = { level: constants.Z_BEST_SPEED };

/** One view's bytes deflated: small ones at once, large ones in zlib's pool. */
function deflatedView(bytes: Uint8Array): Buffer | Promise<Buffer> {
  return bytes.byteLength <= DEFLATE_INLINE_BYTES
    ? deflateSync(bytes, DEFLATE_OPTIONS)
    : deflated(bytes, DEFLATE_OPTIONS);
}

/**
 * The snapshot columns of the line an evaluation made (its JSON bytes in both views,
 * engine-tasks.ts LineSnapshot), deflated off the engine worker, which every evaluation
 * of the version waits for: in zlib's thread pool, or for a small view on the event
 * loop, where it costs less than the hop (DEFLATE_INLINE_BYTES). At the fastest level:
 * both views of a 1,000-question line in 1.6 ms instead of 4.8, for rows ~25 % larger
 * (41 + 23 kB instead of 33 + 21 kB); inflating costs the same at any level.
 */
export async function deflatedSnapshot(evaluation: EvaluatedLine): Promise<SnapshotColumns> {
  const snapshot = evaluation.snapshot;
  if (snapshot === undefined) throw new Error('The evaluation made no snapshot');
  const [full, compact] = await Promise.all([
    deflatedView(snapshot.full),
    deflatedView(snapshot.compact),
  ]);
  return {
    snapshot: full.toString('base64'),
    compactSnapshot: compact.toString('base64'),
    engineVersion: snapshot.engineVersion,
  };
}

/**
 * A stored line as GET /v1/carts/{id} answers it: the snapshot of the asked view,
 * inflated off the event loop (zlib's thread pool), with the row's columns appended (they
 * are authoritative: the ids, answers, price). Null for a row stored before snapshots.
 * No engine runs: what the buyer saw at add time is what is read, whatever engine
 * version serves it.
 */
export async function storedLine(
  row: CartLineEntity,
  view: LineView,
  urls: AssetUrlSigner,
  latestVersion?: number,
): Promise<JsonText | null> {
  const line = await snapshotBytes(row, view, urls);
  return line === null ? null : lineWith(line, rowColumns(row, view, latestVersion));
}

/**
 * Stored snapshots up to this size (base64) are inflated on the event loop. An inflate in
 * zlib's pool costs the main thread ~70–100 µs of its own (a stream, its buffers, the
 * pool's round trip) whatever the size; a synchronous one of 3 kB of deflate (~50 kB of
 * JSON) costs about as much in all, and a window.yaml line (~0.6 kB) a third of it
 * (docs/adr/0055). Larger ones go to the pool: the loop is never held for long.
 */
const INFLATE_ON_LOOP_MAX = 4096;

/**
 * The snapshot of the view as JSON bytes (without `version_number`), or null. Its asset
 * URLs are signed anew: those of the add time expire.
 */
export async function snapshotBytes(
  row: CartLineEntity,
  view: LineView,
  urls: AssetUrlSigner,
): Promise<Buffer | null> {
  const stored = view === 'compact' ? row.compactSnapshot : row.snapshot;
  if (stored === null) return null;
  const deflated = Buffer.from(stored, 'base64');
  return urls.refreshed(
    stored.length <= INFLATE_ON_LOOP_MAX ? inflateSync(deflated) : await inflated(deflated),
  );
}

/**
 * The members of a cart line that its row holds (CartLineDto), with the view it is in, its
 * ETag and the model's newer version (`latestVersion` when it is past the line's).
 */
export function rowColumns(
  row: CartLineEntity,
  view: LineView,
  latestVersion?: number,
): Record<string, unknown> {
  return {
    view,
    id: row.id,
    model_id: row.modelId,
    version_number: row.versionNumber,
    company_id: row.companyId,
    language_code: row.languageCode,
    total: row.total,
    currency: row.currency,
    answers: row.answers,
    created_at: row.createdAt.toISOString(),
    etag: lineEtag(row.revision),
    latest_version_number:
      latestVersion !== undefined && latestVersion > row.versionNumber ? latestVersion : null,
  };
}
