import { Param } from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';

/** Ids in paths are positive integers; anything else cannot name a resource (404). */
export function parseId(raw: unknown): number {
  const value = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw ApiError.notFound();
  return value;
}

/** A positive integer id from the path (404 for anything else): `@IdParam() id: number`. */
export const IdParam = (name = 'id') =>
  Param(name, { transform: (raw: unknown) => parseId(String(raw)) });
