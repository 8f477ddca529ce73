import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import type { JsonText } from '../common/http/json-text.js';
import type { CartLineEntity } from './cart-line.entity.js';
import { lineEtag } from './line-etag.js';
import type { AssetUrlSigner } from '../models/asset-url-signer.js';
import type { LineView } from './compact-line.js';
import { lineWith } from './line-answer.js';

const inflated = promisify(inflate);

/** A row's snapshot columns as the worker made them (engine-tasks.ts LineSnapshot). */
export interface SnapshotColumns {
  snapshot: string;
  compactSnapshot: string;
  engineVersion: string;
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
 * The snapshot of the view as JSON bytes (without `version_number`), or null. Its asset
 * URLs are signed anew: those of the add time expire.
 */
export async function snapshotBytes(
  row: CartLineEntity,
  view: LineView,
  urls: AssetUrlSigner,
): Promise<Buffer | null> {
  const stored = view === 'compact' ? row.compactSnapshot : row.snapshot;
  return stored === null ? null : urls.refreshed(await inflated(Buffer.from(stored, 'base64')));
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
