/**
 * Swagger security scheme names, one per credential sent in the Authorization header.
 * Here (not in common/swagger) so that `@Auth` imports nothing outside this folder.
 */
export const SECURITY_SCHEMES = {
  jwt: 'access-token',
  api: 'api-token',
  intent: 'intent-token',
} as const;
