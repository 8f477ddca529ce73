import type { EnvReader } from './env-reader.js';

/** The few rules of single features that an operator may tune. */
export interface FeaturesConfig {
  /** At most this many lines per cart (409 past it). */
  cartMaxLines: number;
  /** A company invitation not accepted within this many days lapses (INVITATION_TTL_DAYS). */
  invitationTtlDays: number;
  /** A signed asset URL is valid for at least this long, at most twice (ASSET_URL_TTL, s). */
  assetUrlTtlSeconds: number;
  /**
   * An idempotency key reserved without an answer (by an older release) this long ago
   * was lost with its instance: a retry runs (IDEMPOTENCY_ABANDONED_AFTER_MS).
   */
  idempotencyAbandonedAfterMs: number;
}

export function readFeaturesConfig(read: EnvReader): FeaturesConfig {
  return {
    cartMaxLines: read.int('CART_MAX_LINES', 500, 1, 100_000),
    invitationTtlDays: read.int('INVITATION_TTL_DAYS', 14, 1, 365),
    assetUrlTtlSeconds: read.int('ASSET_URL_TTL', 3600, 60, 7 * 24 * 3600),
    idempotencyAbandonedAfterMs: read.int(
      'IDEMPOTENCY_ABANDONED_AFTER_MS',
      5 * 60 * 1000,
      100,
      24 * 3600 * 1000,
    ),
  };
}
