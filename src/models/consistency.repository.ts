import type { DataSource, EntityManager } from 'typeorm';
import { ENGINE_VERSION, storedEngineVersion } from '../engine/index.js';

/**
 * The stored consistency form of a model version (migration 1764100000000): bytes in
 * `model_versions.consistency` (blob / bytea) with the engine version that built them
 * (`consistency_engine`). Raw SQL rather than an entity column: the binary column type
 * differs per driver. Used by ModelRepository (in the upload's transaction, and to
 * store a form rebuilt by a newer engine).
 */
type Queryable = DataSource | EntityManager;

function placeholders(db: Queryable, count: number): string[] {
  const options = 'dataSource' in db ? db.dataSource.options : db.options;
  const postgres = options.type === 'postgres';
  return Array.from({ length: count }, (_, i) => (postgres ? `$${i + 1}` : '?'));
}

/** Stores a version's compiled form (serializeConsistency bytes). */
export async function storeConsistency(
  db: Queryable,
  modelId: number,
  versionNumber: number,
  form: Uint8Array,
): Promise<void> {
  const [bytes, engine, model, version] = placeholders(db, 4);
  await db.query(
    `UPDATE "model_versions" SET "consistency" = ${bytes}, "consistency_engine" = ${engine} ` +
      `WHERE "model_id" = ${model} AND "version_number" = ${version}`,
    [Buffer.from(form), ENGINE_VERSION, modelId, versionNumber],
  );
}

/** The stored form of a version, or undefined when none was stored. */
export async function loadConsistency(
  db: Queryable,
  modelId: number,
  versionNumber: number,
): Promise<Uint8Array | undefined> {
  const [model, version] = placeholders(db, 2);
  const rows: Array<{ consistency: Uint8Array | null }> = await db.query(
    `SELECT "consistency" FROM "model_versions" ` +
      `WHERE "model_id" = ${model} AND "version_number" = ${version}`,
    [modelId, versionNumber],
  );
  const row = rows[0];
  if (row?.consistency == null) return undefined;
  return new Uint8Array(row.consistency);
}

/** A stored form built by this engine version (else the compile rebuilds it and it is stored again). */
export function isCurrentConsistency(stored: Uint8Array | undefined): stored is Uint8Array {
  return stored !== undefined && storedEngineVersion(stored) === ENGINE_VERSION;
}
