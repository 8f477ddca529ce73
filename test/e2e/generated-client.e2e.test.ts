import { load } from 'js-yaml';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINDOW_MODEL_YAML } from '../../src/models/upload/window-example.js';
import type { paths } from '../client/openapi.d.ts';
import { unique } from '../support/factories.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestApp,
  listenOnFreePort,
  type TestContext,
} from '../support/test-app.js';

/**
 * The README walkthrough through a client generated from openapi.json (openapi-typescript
 * types, openapi-fetch), against the real app on a free port: every field read below is
 * typed by the document, so a schema that lies fails the type check or the assertions.
 */
describe('the README walkthrough with the generated client', () => {
  let ctx: TestContext;
  let client: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    ctx = await createTestApp();
    client = createClient<paths>({ baseUrl: await listenOnFreePort(ctx) });
  });
  afterAll(() => ctx.close());

  it('logs in, creates a company, a supplier and a model, previews, adds a line, reads the cart', async () => {
    const login = await client.POST('/v1/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(login.response.status).toBe(201);
    const accessToken: string = login.data!.data.access_token;
    const headers = { Authorization: `Bearer ${accessToken}` };

    const company = await client.POST('/v1/companies', {
      headers,
      body: {
        email: `${unique('buyer')}@example.com`,
        name: 'Dealer BV',
        vat_number: unique('NL'),
        coc_number: '12345678',
        phone_number: null,
      },
    });
    expect(company.response.status).toBe(201);
    const companyId: number = company.data!.data.id;
    expect(company.data!.data.phone_number).toBeNull();

    const supplier = await client.POST('/v1/suppliers/{id}', {
      headers,
      params: { path: { id: companyId } },
      body: {
        email: `${unique('sales')}@acme.example`,
        name: 'Acme Windows',
        website: 'https://acme.example',
      },
    });
    expect(supplier.response.status).toBe(201);
    const supplierId: number = supplier.data!.data.id;

    const model = await client.POST('/v1/suppliers/{id}/models', {
      headers,
      params: { path: { id: supplierId } },
      body: load(WINDOW_MODEL_YAML) as { general: { name: string } },
    });
    expect(model.response.status).toBe(201);
    const modelId: number = model.data!.data.id;
    expect(model.data!.data.version_number).toBe(1);
    expect(model.data!.data.general.name).toBe('Casement window');

    const configuration = {
      model_id: modelId,
      company_id: companyId,
      questions: {
        width: { values: [1200] },
        height: { values: [1000] },
        frame: { values: ['alu'] },
        color: { values: ['white'] },
      },
    };
    const preview = await client.POST('/v1/carts/preview', { headers, body: configuration });
    expect(preview.response.status).toBe(200);
    const line = preview.data!.data;
    // No guard: an option's `available` reads alike in both views (a compact line lists
    // only unavailable options, each `available: false`); `view` tells the two apart.
    expect(line.view).toBe('full');
    expect(line.valid).toBe(true);
    // questions[2] is frame (width, height, frame, color), its first option pvc.
    expect(line.questions[2]!.key).toBe('frame');
    const pvcAvailable: boolean | undefined = line.questions[2]!.options![0]!.available;
    expect(pvcAvailable).toBe(true);
    const firstSku: string | undefined = line.bom_items[0]?.sku;
    expect(firstSku).toBe('PRF-ALU-60');
    const total: string = line.pricing.total;
    expect(total).toMatch(/^\d+\.\d{2}$/);
    expect(line.questions.find((q) => q.key === 'frame')?.options?.map((o) => o.key)).toEqual([
      'pvc',
      'alu',
      'wood',
    ]);

    const compact = await client.POST('/v1/carts/preview', {
      headers,
      params: { query: { view: 'compact' } },
      body: configuration,
    });
    const compactLine = compact.data!.data;
    expect(compactLine.view).toBe('compact');
    // Only unavailable options are listed in the compact view, each with its reasons.
    const listed: Array<{ available?: boolean; unavailable_because: string[] }> = [];
    for (const q of compactLine.questions) listed.push(...(q.options ?? []));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((o) => o.available === false && o.unavailable_because.length > 0)).toBe(
      true,
    );

    const added = await client.POST('/v1/carts', { headers, body: configuration });
    expect(added.response.status).toBe(201);
    const cartId: string = added.data!.data.cart_id;
    expect(added.data!.data.pricing.total).toBe(total);

    const cart = await client.GET('/v1/carts/{cart_id}', {
      headers,
      params: { path: { cart_id: cartId } },
    });
    expect(cart.response.status).toBe(200);
    const lines = cart.data!.data.lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]!.view).toBe('full');
    expect(lines[0]!.bom_items[0]!.sku).toBe('PRF-ALU-60');
    expect(lines[0]!.total).toBe(total);
    expect(cart.data!.data.total).toBe(total);

    const byDefault = await client.GET('/v1/carts/default', { headers });
    expect(byDefault.data!.data.cart_id).toBe(cartId);
  });
});
