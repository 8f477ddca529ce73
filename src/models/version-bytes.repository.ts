import type { DataSource, EntityManager } from 'typeorm';
import { fixedSql } from '../database/fixed-sql.js';
import { ENGINE_VERSION } from '../engine/index.js';

/**
 * The binary columns of a model version: its deflated definition
 * (`definition_deflated`, migration 1764600000000, see definition-bytes.ts) and its
 * compiled consistency form (`consistency`, migration 1764100000000) with the engine
 * version that built it (`consistency_engine`). Raw SQL rather than entity columns: the
 * binary column type differs per driver (blob / bytea). Used by ModelRepository and
 * version-writes.repository.ts only.
 */
type Queryable = DataSource | EntityManager;

/** `sql` written with `$1, $2, …` for the database behind `db` (fixed-sql.ts). */
const sqlFor = (db: Queryable, sql: string): string =>
  fixedSql('dataSource' in db ? db.dataSource : db, sql);

/** Stores a version's deflated definition (with its compiled form, when known). */
export function storeDefinition(
  db: Queryable,
  modelId: number,
  versionNumber: number,
  definition: Uint8Array,
  consistency: Uint8Array | undefined,
): Promise<void> {
  const form = consistency === undefined ? {} : formColumns(consistency);
  return updateVersion(db, modelId, versionNumber, {
    definition_deflated: Buffer.from(definition),
    ...form,
  });
}

/** Stores a version's compiled form (serializeConsistency bytes). */
export function storeConsistency(
  db: Queryable,
  modelId: number,
  versionNumber: number,
  form: Uint8Array,
): Promise<void> {
  return updateVersion(db, modelId, versionNumber, formColumns(form));
}

/** A version's deflated definition, or undefined when there is no such version. */
export const loadDefinition = (db: Queryable, modelId: number, versionNumber: number) =>
  loadBytes(db, 'definition_deflated', modelId, versionNumber);

/** Several versions' deflated definitions, in one query (versions without one are left out). */
export async function loadDefinitions(
  db: Queryable,
  versions: ReadonlyArray<{ modelId: number; versionNumber: number }>,
): Promise<Array<{ modelId: number; versionNumber: number; definition: Uint8Array }>> {
  if (versions.length === 0) return [];
  const pairs = versions.map(
    (_, i) => `("model_id" = $${2 * i + 1} AND "version_number" = $${2 * i + 2})`,
  );
  const rows: Array<{ model_id: number; version_number: number; bytes: Uint8Array | null }> =
    await db.query(
      sqlFor(
        db,
        `SELECT "model_id", "version_number", "definition_deflated" AS "bytes" ` +
          `FROM "model_versions" WHERE ${pairs.join(' OR ')}`,
      ),
      versions.flatMap((version) => [version.modelId, version.versionNumber]),
    );
  const found = new Map(rows.map((row) => [`${row.model_id}/${row.version_number}`, row.bytes]));
  return versions.flatMap(({ modelId, versionNumber }) => {
    const bytes = found.get(`${modelId}/${versionNumber}`);
    return bytes == null ? [] : [{ modelId, versionNumber, definition: ownCopy(bytes) }];
  });
}

/** The stored form of a version, or undefined when none was stored. */
export const loadConsistency = (db: Queryable, modelId: number, versionNumber: number) =>
  loadBytes(db, 'consistency', modelId, versionNumber);

const formColumns = (form: Uint8Array) => ({
  consistency: Buffer.from(form),
  consistency_engine: ENGINE_VERSION,
});

async function updateVersion(
  db: Queryable,
  modelId: number,
  versionNumber: number,
  columns: Record<string, unknown>,
): Promise<void> {
  const names = Object.keys(columns);
  const set = names.map((name, i) => `"${name}" = $${i + 1}`).join(', ');
  const where = `"model_id" = $${names.length + 1} AND "version_number" = $${names.length + 2}`;
  await db.query(sqlFor(db, `UPDATE "model_versions" SET ${set} WHERE ${where}`), [
    ...Object.values(columns),
    modelId,
    versionNumber,
  ]);
}

async function loadBytes(
  db: Queryable,
  column: 'consistency' | 'definition_deflated',
  modelId: number,
  versionNumber: number,
): Promise<Uint8Array | undefined> {
  const rows: Array<{ bytes: Uint8Array | null }> = await db.query(
    sqlFor(
      db,
      `SELECT "${column}" AS "bytes" FROM "model_versions" ` +
        `WHERE "model_id" = $1 AND "version_number" = $2`,
    ),
    [modelId, versionNumber],
  );
  const bytes = rows[0]?.bytes;
  return bytes == null ? undefined : ownCopy(bytes);
}

/** A copy: the driver's Buffer may be a view of a larger pool (cloned whole to a worker). */
const ownCopy = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes);
