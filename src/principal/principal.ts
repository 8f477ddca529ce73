/** What a user may be; stored on the user row. */
export type UserRole = 'admin' | 'member';

/** The kinds of credential a route may accept (docs/api.md, "Credentials"). */
export type CredentialKind = 'jwt' | 'api' | 'intent' | 'refresh';

/** How the caller came in: a credential, or the operator's CLI (`system`). */
export type PrincipalVia = CredentialKind | 'system';

/** Who is calling, and through which credential. */
export interface Principal {
  userId: number;
  email: string;
  role: UserRole;
  via: PrincipalVia;
  /** Intent tokens are restricted to one company; null for other credentials. */
  companyId: number | null;
  /** The API token's or intent token's id. */
  tokenId: string | number | null;
  /** The login session (refresh-token family) an access or refresh token belongs to. */
  familyId: string | null;
}

export const isAdmin = (principal: Pick<Principal, 'role'>): boolean => principal.role === 'admin';

/**
 * The operator at the command line: may do what an admin may, recorded as `user` (the
 * uploader of a model, say). Services check it like any other caller.
 */
export function systemPrincipal(user: { id: number; email: string }): Principal {
  return {
    userId: user.id,
    email: user.email,
    role: 'admin',
    via: 'system',
    companyId: null,
    tokenId: null,
    familyId: null,
  };
}
