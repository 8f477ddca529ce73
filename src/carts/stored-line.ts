import { promisify } from 'node:util';
import { constants, deflate, deflateSync, inflate, inflateSync } from 'node:zlib';
import type { JsonText } from '../common/http/json-text.js';
import type { CartLineEntity } from './cart-line.entity.js';
import { lineEtag } from './line-etag.js';
import type { AssetUrlSigner } from '../engine-runtime/asset-url-signer.js';
import type { EvaluatedLine } from '../engine-runtime/compiled-models.service.js';
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
 * When zlib works on the event loop rather than in its thread pool, for both directions:
 * on the loop when the work costs it no more than a trip through the pool costs it
 * whatever the size (a zlib stream built, initialized and called back: ~70–100 µs for an
 * inflate, 0.1–0.2 ms for a deflate), so a small snapshot saves the hop and a large one
 * never holds the loop for long (docs/adr/0055, docs/adr/0106).
 * The rule is one; its two thresholds cannot be one constant:
 * - they measure different things: a deflate knows its input, the view's JSON; an inflate
 *   knows only the stored base64, not how large the JSON it yields will be;
 * - per byte of JSON, inflating costs a fraction of deflating (fastest level), so the two
 *   break even with the hop at different sizes: a deflate at ~16 kB of JSON (a window
 *   line's two views, ~5 + 2 kB, cost a fifth of the pair in the pool), an inflate at
 *   ~4 kB of base64 (3 kB deflated, ~50 kB of JSON; a window line, ~0.6 kB, a third).
 */
const ZLIB_ON_LOOP = {
  /** A view of at most this many bytes of JSON is deflated with deflateSync. */
  deflateJsonBytes: 16 * 1024,
  /**
   * A snapshot of at most this many characters of base64 is inflated with inflateSync
   * (the read floor of bench/http-floor.mjs applies the same number).
   */
  inflateBase64Chars: 4096,
} as const;

const DEFLATE_OPTIONS = { level: constants.Z_BEST_SPEED };

/**
 * The output chunk of a deflate in the pool: each chunk is one callback on the event loop
 * and one more piece to join, and a line's JSON deflates to about a twentieth of its size
 * (a 5,000-question line: 4.2 MB → 190 kB), so an eighth of the input is one chunk where
 * zlib's default 16 kB made a dozen (their callbacks cost the loop ~3 ms per such PUT).
 */
const chunkSizeFor = (bytes: Uint8Array) =>
  Math.min(1 << 20, Math.max(16 * 1024, bytes.byteLength >> 3));

/** One view's bytes deflated: small ones at once, large ones in zlib's pool. */
function deflatedView(bytes: Uint8Array): Buffer | Promise<Buffer> {
  return bytes.byteLength <= ZLIB_ON_LOOP.deflateJsonBytes
    ? deflateSync(bytes, DEFLATE_OPTIONS)
    : deflated(bytes, { ...DEFLATE_OPTIONS, chunkSize: chunkSizeFor(bytes) });
}

/**
 * The snapshot columns of the line an evaluation made (its JSON bytes in both views,
 * engine-tasks.ts LineSnapshot), deflated off the engine worker, which every evaluation
 * of the version waits for: in zlib's thread pool, or for a small view on the event
 * loop, where it costs less than the hop (ZLIB_ON_LOOP). At the fastest level:
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
 * The snapshot of the view as JSON bytes (without `version_number`), or null: a small one
 * inflated on the event loop, a large one in zlib's pool (ZLIB_ON_LOOP). Its asset URLs
 * are signed anew: those of the add time expire.
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
    stored.length <= ZLIB_ON_LOOP.inflateBase64Chars
      ? inflateSync(deflated)
      : await inflated(deflated),
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
