/**
 * The operationId of every route, by `METHOD path`: what generated clients call their
 * methods (`client.addCartLine`). A table keyed by route rather than by controller method,
 * so that renaming or moving handlers between controllers does not change the client;
 * test/e2e/openapi-drift.e2e.test.ts fails when the committed document no longer matches.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'POST /v1/login': 'login',
  'POST /v1/refresh': 'refreshTokens',
  'POST /v1/logout': 'logout',
  'POST /v1/users': 'createUser',
  'GET /v1/users/me': 'getCurrentUser',
  'PATCH /v1/users/me': 'updateCurrentUser',
  'PATCH /v1/users/{id}': 'updateUser',
  'POST /v1/tokens': 'createApiToken',
  'GET /v1/tokens': 'listApiTokens',
  'DELETE /v1/tokens/{id}': 'revokeApiToken',
  'POST /v1/intents': 'createIntentToken',
  'DELETE /v1/intents/{id}': 'revokeIntentToken',
  'POST /v1/companies': 'createCompany',
  'GET /v1/companies': 'listCompanies',
  'GET /v1/companies/{id}': 'getCompany',
  'POST /v1/companies/{id}/members': 'addCompanyMember',
  'GET /v1/companies/{id}/members': 'listCompanyMembers',
  'DELETE /v1/companies/{id}/members/{user_id}': 'removeCompanyMember',
  'POST /v1/companies/{id}/invitations': 'inviteToCompany',
  'GET /v1/invitations': 'listInvitations',
  'POST /v1/invitations/{id}/accept': 'acceptInvitation',
  'GET /v1/companies/{id}/suppliers': 'listCompanySuppliers',
  'POST /v1/companies/{id}/suppliers': 'linkCompanySupplier',
  'GET /v1/companies/{id}/models': 'listCompanyModels',
  'GET /v1/companies/{id}/models/{modelId}/assets/{path}': 'getCompanyModelAsset',
  'GET /v1/assets/{companyId}/{modelId}/{version}/{path}': 'getSignedAsset',
  'POST /v1/suppliers/{id}': 'createSupplier',
  'GET /v1/suppliers/{id}': 'getSupplier',
  'POST /v1/suppliers/{id}/members': 'addSupplierMember',
  'GET /v1/suppliers/{id}/members': 'listSupplierMembers',
  'DELETE /v1/suppliers/{id}/members/{user_id}': 'removeSupplierMember',
  'POST /v1/suppliers/{id}/models': 'createModel',
  'GET /v1/suppliers/{id}/models': 'listSupplierModels',
  'GET /v1/models/{id}': 'getModel',
  'PUT /v1/models/{id}': 'uploadModelVersion',
  'POST /v1/models/{id}/lock': 'lockModel',
  'DELETE /v1/models/{id}/lock': 'unlockModel',
  'GET /v1/models/{id}/assets/{path}': 'getModelAsset',
  'GET /v1/models/{id}/versions': 'listModelVersions',
  'GET /v1/models/{id}/versions/{version}': 'getModelVersion',
  'GET /v1/models/{id}/diff': 'diffModelVersions',
  'POST /v1/models/{id}/retire': 'retireModel',
  'DELETE /v1/models/{id}/retire': 'reinstateModel',
  'POST /v1/carts/new': 'createCart',
  'GET /v1/carts': 'listCarts',
  'POST /v1/carts': 'addCartLine',
  'POST /v1/carts/preview': 'previewCartLine',
  'GET /v1/carts/default': 'getDefaultCart',
  'GET /v1/carts/{cart_id}': 'getCart',
  'DELETE /v1/carts/{cart_id}/lines/{line_id}': 'removeCartLine',
  'PATCH /v1/carts/{cart_id}': 'updateCart',
  'DELETE /v1/carts/{cart_id}': 'deleteCart',
  'PUT /v1/carts/{cart_id}/lines/{line_id}': 'reconfigureCartLine',
  'POST /v1/carts/{cart_id}/lines/{line_id}/recheck': 'recheckCartLine',
  'POST /v1/carts/{cart_id}/recheck': 'recheckCart',
  'GET /v1/models/{id}/versions/{version}/impact': 'getModelVersionImpact',
  'GET /health/live': 'checkLiveness',
  'GET /health/ready': 'checkReadiness',
  'GET /metrics': 'getMetrics',
};

/** Tags in the order Swagger UI shows them, each with what it groups. */
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'auth', description: 'Log in, rotate the refresh token, log out' },
  { name: 'users', description: 'Users (admins create them) and the caller' },
  { name: 'tokens', description: 'API tokens (`cfg_…`) for integrations' },
  {
    name: 'intents',
    description: 'Short-lived intent tokens for a web shop acting for one company',
  },
  { name: 'companies', description: 'Buyers, their members and the suppliers linked to them' },
  { name: 'invitations', description: 'Invitations into companies by email, and accepting them' },
  { name: 'suppliers', description: 'Makers of products and their members' },
  { name: 'models', description: 'Configurable products: upload, versions, edit locks, images' },
  { name: 'carts', description: 'Carts and the configurations (cart lines) in them' },
  { name: 'health', description: 'Liveness and readiness probes' },
  { name: 'ops', description: 'Prometheus metrics' },
];

/** Routes that do not touch the database, so never answer 503 for it. */
export const WITHOUT_DATABASE: readonly string[] = ['GET /health/live', 'GET /metrics'];

/**
 * Writes whose answer carries the ETag a client sends as If-Match on its next write (a new
 * or replaced line, a model's new version), so that it need not read first.
 */
export const WRITES_WITH_ETAG: readonly string[] = [
  'POST /v1/carts',
  'PUT /v1/carts/{cart_id}/lines/{line_id}',
  'PUT /v1/models/{id}',
];
