import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import type { JsonText } from '../common/http/json-text.js';
import type { CartLineEntity } from './cart-line.entity.js';
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
export async function storedLine(row: CartLineEntity, view: LineView): Promise<JsonText | null> {
  const line = await snapshotBytes(row, view);
  return line === null ? null : lineWith(line, rowColumns(row));
}

/** The snapshot of the view as JSON bytes (without `version_number`), or null. */
export async function snapshotBytes(row: CartLineEntity, view: LineView): Promise<Buffer | null> {
  const stored = view === 'compact' ? row.compactSnapshot : row.snapshot;
  return stored === null ? null : inflated(Buffer.from(stored, 'base64'));
}

/** The members of a cart line that its row holds (CartLineDto). */
export function rowColumns(row: CartLineEntity): Record<string, unknown> {
  return {
    id: row.id,
    model_id: row.modelId,
    version_number: row.versionNumber,
    company_id: row.companyId,
    language_code: row.languageCode,
    total: row.total,
    currency: row.currency,
    answers: row.answers,
    created_at: row.createdAt.toISOString(),
  };
}
