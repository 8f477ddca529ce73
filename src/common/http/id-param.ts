import { Param } from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';

/** The largest id a row can have: ids are 32-bit `integer` columns (PostgreSQL's limit). */
export const MAX_ID = 2_147_483_647;

/** The one spelling of an id: decimal digits, no sign, space, leading zero, point or exponent. */
const CANONICAL_ID = /^[1-9][0-9]{0,9}$/;

/** `raw` is an id spelled canonically (the range is parseId's business). */
export function isCanonicalId(raw: unknown): raw is string {
  return typeof raw === 'string' && CANONICAL_ID.test(raw);
}

/**
 * Ids in paths are canonical positive integers up to MAX_ID; anything else (`0x1`, `1.0`,
 * ` 1`, `+1`, `01`) names nothing (404), so one resource has exactly one URL.
 */
export function parseId(raw: unknown): number {
  const value = isCanonicalId(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_ID) throw ApiError.notFound();
  return value;
}

/** A positive integer id from the path (404 for anything else): `@IdParam() id: number`. */
export const IdParam = (name = 'id') => Param(name, { transform: (raw: unknown) => parseId(raw) });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UUID ids (carts, intent tokens): anything else cannot name one. */
export const isUuid = (value: string): boolean => UUID.test(value);
