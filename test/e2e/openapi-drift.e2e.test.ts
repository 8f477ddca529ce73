import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderClientTypes } from '../../src/common/swagger/client-types.js';
import { OPERATION_IDS } from '../../src/common/swagger/operations.js';
import { createTestApp, type TestContext } from '../support/test-app.js';
import { OPENAPI_PATH } from '../support/openapi-validator.js';

const CLIENT_TYPES_PATH = new URL('../client/openapi.d.ts', import.meta.url);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('the committed OpenAPI document', () => {
  let ctx: TestContext;
  let served: { paths: Record<string, Record<string, { operationId?: string }>> };
  const committed = readFileSync(OPENAPI_PATH, 'utf8');

  beforeAll(async () => {
    ctx = await createTestApp();
    const res = await ctx.http.get('/docs-json');
    expect(res.status).toBe(200);
    served = res.body;
  });
  afterAll(() => ctx.close());

  it('is what the running app serves (else: npm run openapi, and commit)', () => {
    expect(served).toEqual(JSON.parse(committed));
  });

  it('has generated client types that match it (else: npm run openapi)', async () => {
    expect(readFileSync(CLIENT_TYPES_PATH, 'utf8')).toBe(await renderClientTypes(committed));
  });

  it('names every operation from the operationId table, and the table names only routes', () => {
    const routes = Object.entries(served.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({
        route: `${method.toUpperCase()} ${path}`,
        operationId: item[method]!.operationId,
      })),
    );
    expect(routes.filter((r) => OPERATION_IDS[r.route] !== r.operationId)).toEqual([]);
    expect(Object.keys(OPERATION_IDS).sort()).toEqual(routes.map((r) => r.route).sort());
    const ids = routes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lets no token be persisted by Swagger UI', async () => {
    const res = await ctx.http.get('/docs/swagger-ui-init.js');
    expect(res.status).toBe(200);
    expect(res.text).toContain('"persistAuthorization": false');
  });
});
