import { SetMetadata } from '@nestjs/common';

export const SEED_CONTRACT_KEY = 'seed-contract';

/**
 * Statuses that the commissioned interface (docs/api.md, "The seed contract") fixes for one of its 12
 * endpoints and that differ from plain HTTP semantics. Authentication failures on
 * every seed endpoint answer 403.
 */
export interface SeedContractOptions {
  /** Status for a malformed or invalid body (default 400). */
  invalidBody?: number;
  /** Status when the caller is not a member of the supplier named in the path (default 403). */
  notMember?: number;
}

export interface SeedContract extends Required<SeedContractOptions> {
  unauthenticated: number;
}

export const SeedContract = (options: SeedContractOptions = {}) =>
  SetMetadata(SEED_CONTRACT_KEY, {
    invalidBody: options.invalidBody ?? 400,
    notMember: options.notMember ?? 403,
    unauthenticated: 403,
  } satisfies SeedContract);

/** What a route answers when it is not a seed endpoint: plain HTTP semantics. */
export const PLAIN_HTTP_CONTRACT: SeedContract = {
  invalidBody: 400,
  notMember: 403,
  unauthenticated: 401,
};
