import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { SECURITY_SCHEMES } from './security-schemes.js';
import type { CredentialKind } from './principal.js';

export const AUTH_KEY = 'auth';
export const PUBLIC_KEY = 'public';

export interface AuthOptions {
  /** Only admins pass. */
  role?: 'admin';
  /** Route param holding a supplier id: the caller must be a member of it (or admin). */
  supplierMember?: string;
  /** Route param holding a company id: the caller must be able to see it (or 404). */
  companyMember?: string;
  /**
   * Kinds the guard lets through only so that the seed contract's order of statuses holds
   * (an invalid body first), and that the service then refuses: not documented as
   * accepted. POST /v1/companies: an intent token gets 401 for an invalid body, else 403.
   */
  refused?: CredentialKind[];
}

export interface AuthRequirement extends AuthOptions {
  kinds: CredentialKind[];
}

/**
 * The credentials a route accepts, and who may call it: `@Auth('jwt', 'intent')`,
 * `@Auth('jwt', 'api', { role: 'admin' })`. Bundles the metadata the global guard
 * reads with the Swagger security entries.
 */
export function Auth(...args: [...CredentialKind[], AuthOptions] | CredentialKind[]) {
  const items = args as (CredentialKind | AuthOptions)[];
  const last = items[items.length - 1];
  const options: AuthOptions = typeof last === 'object' ? last : {};
  const kinds = items.filter((a): a is CredentialKind => typeof a === 'string');
  const requirement: AuthRequirement = { kinds, ...options };
  const accepted = kinds.filter((kind) => !options.refused?.includes(kind));
  return applyDecorators(
    SetMetadata(AUTH_KEY, requirement),
    // The statuses a failure answers differ between seed and other routes, so each route
    // lists them itself with @ApiErrors. The refresh token is a body field (RefreshDto),
    // not a header: a route that takes it needs no Authorization at all (`{}`).
    ...accepted
      .filter((kind) => kind !== 'refresh')
      .map((kind) => ApiBearerAuth(SECURITY_SCHEMES[kind])),
    ...(accepted.includes('refresh') && accepted.length > 1 ? [ApiSecurity({})] : []),
  );
}

/** The route needs no credential (login, health, docs). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
