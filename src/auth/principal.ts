import type { UserRole } from '../users/user.entity.js';

/** The kinds of credential a route may accept (DESIGN.md, "Principals and tokens"). */
export type CredentialKind = 'jwt' | 'api' | 'intent' | 'refresh';

/** Who is calling, and through which credential. */
export interface Principal {
  userId: number;
  email: string;
  role: UserRole;
  via: CredentialKind;
  /** Intent tokens are restricted to one company; null for other credentials. */
  companyId: number | null;
  /** The API token's or intent token's id. */
  tokenId: string | number | null;
  /** The login session (refresh-token family) an access or refresh token belongs to. */
  familyId: string | null;
}

export const isAdmin = (principal: Principal): boolean => principal.role === 'admin';
