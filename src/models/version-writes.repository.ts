/**
 * Writing one version of a model inside ModelRepository's transaction (`createWithVersion`,
 * `storeNextVersion`): the check that the model's code is free, the version row, its bytes
 * and its assets, and the errors a lost race surfaces as. Query helpers apart from
 * ModelRepository (like version-bytes.repository.ts), which runs the transaction and the
 * conditional update of the model row around them.
 */
import { Not, type EntityManager } from 'typeorm';
import { isUniqueViolation } from '../database/db-errors.js';
import { ModelAssetEntity } from './model-asset.entity.js';
import { ModelVersionEntity } from './model-version.entity.js';
import { ModelEntity } from './model.entity.js';
import { storeDefinition } from './version-bytes.repository.js';
import type { VersionAsset } from '../engine-runtime/stored-versions.port.js';

export type { VersionAsset };

/** Rows per INSERT of assets: keeps statements well under the drivers' parameter limits. */
const ASSET_BATCH = 50;

/** Another model of the supplier already has this `general.code`. */
export class CodeTakenError extends Error {}

/** Someone else stored this version number first. */
export class VersionTakenError extends Error {
  constructor(readonly versionNumber: number) {
    super(`version ${versionNumber} exists`);
  }
}

/** An immutable version to store, with the files its zip shipped. */
export interface NewVersion {
  /** The merged definition, deflated (definition-bytes.ts). */
  definition: Uint8Array;
  sourceFormat: string;
  /** The compiled consistency form (engine serializeConsistency bytes); absent: built on first use. */
  consistency?: Uint8Array;
  assets: Map<string, VersionAsset>;
  createdById: number;
  createdAt: Date;
}

/** What a new version changes on its model row. */
export interface ModelIdentity {
  name: string;
  code: string | null;
  general: Record<string, unknown>;
}

/** Fails with CodeTakenError when another model of the supplier has `code`. */
export async function assertCodeFree(
  manager: EntityManager,
  supplierId: number,
  code: string | null,
  exceptModelId?: number,
): Promise<void> {
  if (code === null) return;
  const taken = await manager.existsBy(ModelEntity, {
    supplierId,
    code,
    ...(exceptModelId === undefined ? {} : { id: Not(exceptModelId) }),
  });
  if (taken) throw new CodeTakenError(code);
}

/**
 * Stores one immutable version and its asset rows (their bytes are stored before the
 * transaction: storeNewAssetBytes); a lost race for its number is VersionTakenError.
 */
export async function insertVersion(
  manager: EntityManager,
  modelId: number,
  versionNumber: number,
  version: NewVersion,
): Promise<void> {
  try {
    await manager.insert(ModelVersionEntity, {
      modelId,
      versionNumber,
      sourceFormat: version.sourceFormat,
      createdById: version.createdById,
      createdAt: version.createdAt,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new VersionTakenError(versionNumber);
    throw error;
  }
  await storeDefinition(manager, modelId, versionNumber, version.definition, version.consistency);
  const rows = [...version.assets].map(([path, asset]) =>
    manager.create(ModelAssetEntity, {
      modelId,
      versionNumber,
      path,
      contentType: asset.contentType,
      sha256: asset.sha256,
      size: asset.size,
    }),
  );
  for (let start = 0; start < rows.length; start += ASSET_BATCH) {
    await manager.insert(ModelAssetEntity, rows.slice(start, start + ASSET_BATCH));
  }
}
