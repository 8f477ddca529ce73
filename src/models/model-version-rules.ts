import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { hasInvisibleCharacters } from '../common/validation/invisible-characters.js';
import { isUniqueViolation } from '../database/db-errors.js';
import type { BuiltModel } from './model-builder.service.js';
import {
  CodeTakenError,
  VersionTakenError,
  type ModelIdentity,
} from './version-writes.repository.js';

const NAME_LENGTH = 200;
const CODE_LENGTH = 100;

/** The name, code and `general` section a version gives its model row. */
export function modelIdentity(built: BuiltModel): ModelIdentity {
  const { name, code } = built;
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
  // A key unique within the supplier: one that looks like another must not pass as new.
  if (code !== undefined && hasInvisibleCharacters(code)) {
    problems.push({
      code: 'invalid_characters',
      message: 'general.code must not contain bidirectional control or zero-width characters',
      path: 'general.code',
    });
  }
  if (problems.length > 0) throw ApiError.badRequest('The model is invalid', problems);
  return { name, code: code ?? null, general: built.general };
}

/**
 * Runs the store of a version: `general.code` is a stable key within the supplier, so
 * another model using it is a 409 (checked, or refused by the unique index when a
 * concurrent upload took it meanwhile); losing the race for the version number is a 409.
 */
export async function storingVersion<T>(code: string | null, store: () => Promise<T>): Promise<T> {
  try {
    return await store();
  } catch (error) {
    if (error instanceof VersionTakenError) throw versionConflict(error.versionNumber);
    if (error instanceof CodeTakenError || isUniqueViolation(error)) throw codeConflict(code);
    throw error;
  }
}

function codeConflict(code: string | null): ApiError {
  return ApiError.conflict('Another model of this supplier has that code', [
    {
      code: 'duplicate',
      message: `general.code "${code}" is already used by another model of this supplier`,
      path: 'general.code',
    },
  ]);
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
