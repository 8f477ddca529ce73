import { describe, expect, it } from 'vitest';
import { checkResponse } from '../support/openapi-validator.js';

const json = (body: unknown) => ({ contentType: 'application/json', body: JSON.stringify(body) });
const company = {
  id: 1,
  email: 'buyer@example.com',
  name: 'Dealer BV',
  vat_number: 'NL123456789B01',
  coc_number: '12345678',
  phone_number: null,
  website: null,
  contact_person: null,
  created_at: '2026-11-22T10:00:00.000Z',
};
const envelope = (data: unknown, code = 200) => ({
  code,
  message: 'OK',
  data,
  links: {},
  errors: [],
});

// The check every e2e answer goes through (test/support/response-recorder.ts) must refuse
// what the document does not allow, or its silence would mean nothing.
describe('checkResponse', () => {
  it('accepts an answer that matches the closed schema of its documented status', () => {
    const res = {
      method: 'GET',
      url: '/v1/companies/1',
      status: 200,
      ...json(envelope([company])),
    };
    expect(checkResponse(res)).toEqual([]);
  });

  it('refuses a member the schema does not list, a missing one and a wrong type', () => {
    const data = [{ ...company, extra: 1, id: '1', website: undefined }];
    const res = { method: 'GET', url: '/v1/companies/1', status: 200, ...json(envelope(data)) };
    const problems = checkResponse(res).join('\n');
    expect(problems).toContain('additionalProperty":"extra');
    expect(problems).toContain('missingProperty":"website');
    expect(problems).toContain('/data/0/id must be integer');
  });

  it('refuses a status the operation does not document', () => {
    const res = { method: 'GET', url: '/v1/carts/default', status: 418, ...json({}) };
    expect(checkResponse(res)).toEqual([
      'GET /v1/carts/default → 418: status not documented for /v1/carts/default',
    ]);
  });

  it('matches literal paths before templates, and leaves unknown paths alone', () => {
    const error = { code: 404, message: 'Not found', data: null, links: {}, errors: [] };
    const unknown = { method: 'GET', url: '/nowhere', status: 404, ...json(error) };
    expect(checkResponse(unknown)).toEqual([]);
    const defaultCart = { method: 'GET', url: '/v1/carts/default', status: 404, ...json(error) };
    expect(checkResponse(defaultCart)).toEqual([
      'GET /v1/carts/default → 404: status not documented for /v1/carts/default',
    ]);
  });
});
