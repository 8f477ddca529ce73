import type { DataSource, EntityManager } from 'typeorm';
import { ENGINE_VERSION, storedEngineVersion } from '../engine/index.js';

/**
 * The binary columns of a model version: its deflated definition
 * (`definition_deflated`, migration 1764600000000, see definition-bytes.ts) and its
 * compiled consistency form (`consistency`, migration 1764100000000) with the engine
 * version that built it (`consistency_engine`). Raw SQL rather than entity columns: the
 * binary column type differs per driver (blob / bytea). Used by ModelRepository only.
 */
type Queryable = DataSource | EntityManager;

function placeholders(db: Queryable, count: number): string[] {
  const options = 'dataSource' in db ? db.dataSource.options : db.options;
  const postgres = options.type === 'postgres';
  return Array.from({ length: count }, (_, i) => (postgres ? `$${i + 1}` : '?'));
}

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
  const marks = placeholders(db, names.length + 2);
  const set = names.map((name, i) => `"${name}" = ${marks[i]}`).join(', ');
  const [model, version] = marks.slice(names.length);
  await db.query(
    `UPDATE "model_versions" SET ${set} WHERE "model_id" = ${model} AND "version_number" = ${version}`,
    [...Object.values(columns), modelId, versionNumber],
  );
}

async function loadBytes(
  db: Queryable,
  column: 'consistency' | 'definition_deflated',
  modelId: number,
  versionNumber: number,
): Promise<Uint8Array | undefined> {
  const [model, version] = placeholders(db, 2);
  const rows: Array<{ bytes: Uint8Array | null }> = await db.query(
    `SELECT "${column}" AS "bytes" FROM "model_versions" ` +
      `WHERE "model_id" = ${model} AND "version_number" = ${version}`,
    [modelId, versionNumber],
  );
  const bytes = rows[0]?.bytes;
  if (bytes == null) return undefined;
  // A copy: the driver's Buffer may be a view of a larger pool (cloned whole to a worker).
  return new Uint8Array(bytes);
}

/** A stored form built by this engine version (else the compile rebuilds it and it is stored again). */
export function isCurrentConsistency(stored: Uint8Array | undefined): stored is Uint8Array {
  return stored !== undefined && storedEngineVersion(stored) === ENGINE_VERSION;
}
