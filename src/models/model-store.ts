import { HttpStatus } from '@nestjs/common';
import { Not, type EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../database/db-errors.js';
import type { BuiltModel } from './model-builder.service.js';
import { ModelAssetEntity } from './model-asset.entity.js';
import { ModelVersionEntity } from './model-version.entity.js';
import { ModelEntity } from './model.entity.js';

/** Rows per INSERT of assets: keeps statements well under the drivers' parameter limits. */
const ASSET_BATCH = 50;
const NAME_LENGTH = 200;
const CODE_LENGTH = 100;

/** The name and code a version gives its model (general.name, general.code). */
export function modelIdentity(built: BuiltModel): { name: string; code: string | null } {
  const { name, code } = built.compiled.general;
  const problems = [];
  if (name.length > NAME_LENGTH) {
    problems.push({
      code: 'too_long',
      message: `general.name is at most ${NAME_LENGTH} characters`,
      path: 'general.name',
    });
  }
  if (code !== undefined && code.length > CODE_LENGTH) {
    problems.push({
      code: 'too_long',
      message: `general.code is at most ${CODE_LENGTH} characters`,
      path: 'general.code',
    });
  }
  if (problems.length > 0) throw ApiError.badRequest('The model is invalid', problems);
  return { name, code: code ?? null };
}

/** `general.code` is a stable key within the supplier: another model using it is a 409. */
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
  if (taken) throw codeConflict(code);
}

export function codeConflict(code: string | null): ApiError {
  return ApiError.conflict('Another model of this supplier has that code', [
    {
      code: 'duplicate',
      message: `general.code "${code}" is already used by another model of this supplier`,
      path: 'general.code',
    },
  ]);
}

/**
 * Runs a store of a model whose code was checked free: when a concurrent upload took
 * the code meanwhile, the unique index `uq_models_supplier_code` refuses it (409).
 * (insertVersion turns its own index violation into an ApiError first.)
 */
export async function withCodeGuard<T>(code: string | null, store: () => Promise<T>): Promise<T> {
  try {
    return await store();
  } catch (error) {
    if (isUniqueViolation(error)) throw codeConflict(code);
    throw error;
  }
}

/** Stores one immutable version and its assets; losing a race for its number is a 409. */
export async function insertVersion(
  manager: EntityManager,
  modelId: number,
  versionNumber: number,
  built: BuiltModel,
  createdById: number,
  createdAt: Date,
): Promise<void> {
  try {
    await manager.save(
      manager.create(ModelVersionEntity, {
        modelId,
        versionNumber,
        definition: built.definition,
        sourceFormat: built.format,
        createdById,
        createdAt,
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw versionConflict(versionNumber);
    throw error;
  }
  const rows = [...built.assets].map(([path, asset]) =>
    manager.create(ModelAssetEntity, {
      modelId,
      versionNumber,
      path,
      contentType: asset.contentType,
      contentBase64: asset.bytes.toString('base64'),
      size: asset.bytes.length,
    }),
  );
  for (let start = 0; start < rows.length; start += ASSET_BATCH) {
    await manager.insert(ModelAssetEntity, rows.slice(start, start + ASSET_BATCH));
  }
}

/** Someone else stored a newer version first (stale If-Match, or a lost race). */
export function versionConflict(currentVersion: number): ApiError {
  return new ApiError(HttpStatus.CONFLICT, 'The model has a newer version', [
    {
      code: 'stale_version',
      message: `The model is at version ${currentVersion}: fetch it and upload against that version`,
      path: 'If-Match',
    },
  ]);
}
