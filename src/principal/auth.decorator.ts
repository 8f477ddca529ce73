import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { SECURITY_SCHEMES } from '../common/swagger/openapi-document.js';
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
  return applyDecorators(
    SetMetadata(AUTH_KEY, requirement),
    // The statuses a failure answers differ between seed and other routes, so each route
    // lists them itself with @ApiErrors. The refresh token is a body field (RefreshDto),
    // not a header: a route that takes it needs no Authorization at all (`{}`).
    ...kinds
      .filter((kind) => kind !== 'refresh')
      .map((kind) => ApiBearerAuth(SECURITY_SCHEMES[kind])),
    ...(kinds.includes('refresh') && kinds.length > 1 ? [ApiSecurity({})] : []),
  );
}

/** The route needs no credential (login, health, docs). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
