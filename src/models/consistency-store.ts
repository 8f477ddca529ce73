import type { DataSource, EntityManager } from 'typeorm';
import {
  type CompiledModel,
  ENGINE_VERSION,
  serializeConsistency,
  storedEngineVersion,
} from '../engine/index.js';

/**
 * The stored consistency form of a model version (migration 1764100000000): bytes in
 * `model_versions.consistency` (blob / bytea) with the engine version that built them.
 * Raw SQL rather than an entity column: the binary column type differs per driver.
 */
export interface StoredConsistency {
  bytes: Uint8Array;
  engine: string | null;
}

type Queryable = DataSource | EntityManager;

function placeholders(db: Queryable, count: number): string[] {
  const options = 'dataSource' in db ? db.dataSource.options : db.options;
  const postgres = options.type === 'postgres';
  return Array.from({ length: count }, (_, i) => (postgres ? `$${i + 1}` : '?'));
}

/** Stores a compiled model's form with its version row (inside the upload's transaction). */
export async function storeConsistency(
  db: Queryable,
  modelId: number,
  versionNumber: number,
  compiled: CompiledModel,
): Promise<void> {
  const [bytes, engine, model, version] = placeholders(db, 4);
  await db.query(
    `UPDATE "model_versions" SET "consistency" = ${bytes}, "consistency_engine" = ${engine} ` +
      `WHERE "model_id" = ${model} AND "version_number" = ${version}`,
    [
      Buffer.from(serializeConsistency(compiled.consistency)),
      ENGINE_VERSION,
      modelId,
      versionNumber,
    ],
  );
}

/** The stored form of a version, or undefined when none was stored. */
export async function loadConsistency(
  db: Queryable,
  modelId: number,
  versionNumber: number,
): Promise<StoredConsistency | undefined> {
  const [model, version] = placeholders(db, 2);
  const rows: Array<{ consistency: Uint8Array | null; consistency_engine: string | null }> =
    await db.query(
      `SELECT "consistency", "consistency_engine" FROM "model_versions" ` +
        `WHERE "model_id" = ${model} AND "version_number" = ${version}`,
      [modelId, versionNumber],
    );
  const row = rows[0];
  if (row?.consistency == null) return undefined;
  return { bytes: new Uint8Array(row.consistency), engine: row.consistency_engine };
}

/** A stored form built by this engine version (else the compile rebuilds it and it is stored again). */
export function isCurrent(stored: StoredConsistency | undefined): stored is StoredConsistency {
  return stored !== undefined && storedEngineVersion(stored.bytes) === ENGINE_VERSION;
}
