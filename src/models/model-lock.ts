import { HttpStatus } from '@nestjs/common';
import type { Principal } from '../principal/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { ifMatchNames } from '../common/http/if-match.js';
import type { ModelEntity } from './model.entity.js';

/**
 * An edit lock lapses after this long, so that a client that took it and vanished
 * does not block the model for good. Taking it again (POST …/lock) renews it.
 */
export const LOCK_TTL_MS = 30 * 60 * 1000;

/** Locks taken before this instant have lapsed. */
export function lockCutoff(now: Date): Date {
  return new Date(now.getTime() - LOCK_TTL_MS);
}

/** Who holds the model's edit lock now (null when free or lapsed). */
export function activeLockHolder(model: ModelEntity, now = new Date()): number | null {
  if (model.lockedById === null || model.lockedAt === null) return null;
  return model.lockedAt.getTime() > lockCutoff(now).getTime() ? model.lockedById : null;
}

/** When the current lock lapses (null when there is none). */
export function lockExpiry(model: ModelEntity, now = new Date()): Date | null {
  if (activeLockHolder(model, now) === null || model.lockedAt === null) return null;
  return new Date(model.lockedAt.getTime() + LOCK_TTL_MS);
}

/**
 * The ETag of a model's answer (`GET /v1/models/{id}`): its version, `"3"`, while nobody
 * holds the edit lock; with the lock, its holder and expiry too (`"3-locked-7-<ms>"`), so
 * that a lock taken, renewed, released or lapsed changes the ETag and an `If-None-Match`
 * revalidation never answers 304 over a stale `locked_by_id`. Either names version 3 for
 * `If-Match` (ifMatchAccepts).
 */
export function modelEtag(answer: {
  version_number: number;
  locked_by_id: number | null;
  lock_expires_at: string | null;
}): string {
  const { version_number: version, locked_by_id: holder, lock_expires_at: expiry } = answer;
  return holder === null || expiry === null
    ? `"${version}"`
    : `"${version}-locked-${holder}-${Date.parse(expiry)}"`;
}

/**
 * The version an `If-Match` header names may be the current one: `3`, `"3"`, `W/"3"`,
 * a model's ETag with its lock (`"3-locked-…"`), a list of those, or `*`. Anything else
 * names no version, so it never matches.
 */
export function ifMatchAccepts(header: string | undefined, currentVersion: number): boolean {
  return ifMatchNames(header, String(currentVersion), (tag) => tag.replace(/-locked-\d+-\d+$/, ''));
}

export function assertNotLockedByOther(model: ModelEntity, principal: Principal): void {
  const holder = activeLockHolder(model);
  if (holder !== null && holder !== principal.userId) throw lockedError(holder);
}

/** 423: someone else holds the edit lock. */
export function lockedError(holderId: number | null): ApiError {
  const who = holderId === null ? 'Another user' : `User ${holderId}`;
  return new ApiError(HttpStatus.LOCKED, 'The model is locked by another user', [
    { code: 'locked', message: `${who} holds the edit lock of this model` },
  ]);
}
