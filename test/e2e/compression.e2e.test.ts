import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  DOOR_DIR,
  createModelWorld,
  uploadModel,
  windowYaml,
  zipFolder,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** As sent: not decoded (supertest would decode gzip and brotli). */
  body: Buffer;
}

/** One request to a listening server with node:http, which decodes nothing. */
function raw(
  server: Server,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: payload ? { ...headers, 'Content-Type': 'application/json' } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('response compression (gzip, brotli; Accept-Encoding; from 1 KB)', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let window: TestModel;
  let door: TestModel;
  let server: Server;
  const bigSvg = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(100)}</svg>`;
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(4096)]);

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    window = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, windowYaml());
    const zip = await zipFolder(DOOR_DIR, {
      'model.yaml': readFileSync(`${DOOR_DIR}/model.yaml`, 'utf8').replace(
        'code: DOOR-EXT',
        'code: DOOR-GZIP',
      ),
      'images/photo.png': png,
      'images/big.svg': bigSvg,
    });
    door = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, zip);
    server = ctx.app.getHttpServer() as Server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  });
  afterAll(() => ctx?.close());

  const preview = (acceptEncoding: string) =>
    raw(
      server,
      'POST',
      '/v1/carts/preview',
      { ...bearer(world.companyMember.token), 'Accept-Encoding': acceptEncoding },
      {
        model_id: window.id,
        company_id: world.company.id,
        questions: { width: { values: [1200] }, height: { values: [1000] } },
      },
    );
  /** The answer without its evaluation time, which differs from one evaluation to the next. */
  const line = (bytes: Buffer) => {
    const data = JSON.parse(bytes.toString('utf8')).data;
    return { ...data, cache: { ...data.cache, evaluated_in_ms: 0 } };
  };

  it('compresses as Accept-Encoding asks, brotli first, with Vary: Accept-Encoding', async () => {
    const plain = await preview('identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    const size = plain.body.length;
    expect(size).toBeGreaterThan(1024);

    const gzip = await preview('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    const gunzipped = gunzipSync(gzip.body);
    expect(line(gunzipped)).toEqual(line(plain.body));
    expect(gzip.body.length).toBeLessThan(size / 3);

    const br = await preview('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(line(brotliDecompressSync(br.body))).toEqual(line(plain.body));

    const refused = await preview('gzip;q=0, br;q=0');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(line(refused.body)).toEqual(line(plain.body));
  });

  it('sends answers under 1 KB as they are', async () => {
    const res = await raw(server, 'GET', '/v1/users/me', {
      ...bearer(world.companyMember.token),
      'Accept-Encoding': 'gzip, br',
    });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).data.id).toBe(world.companyMember.id);
  });

  it('leaves images that are compressed already alone, and compresses SVG', async () => {
    const asset = (path: string) =>
      raw(server, 'GET', `/v1/models/${door.id}/assets/${path}`, {
        ...bearer(world.supplierMember.token),
        'Accept-Encoding': 'gzip, br',
      });
    const photo = await asset('images/photo.png');
    expect(photo.status).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.headers['content-encoding']).toBeUndefined();
    expect(Buffer.compare(photo.body, png)).toBe(0);

    const svg = await asset('images/big.svg');
    expect(svg.status).toBe(200);
    expect(svg.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(svg.body).toString()).toBe(bigSvg);
  });

  it('keeps the envelope of errors intact when compressed', async () => {
    const res = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(world.companyMember.token))
      .send({ model_id: window.id, company_id: world.company.id, questions: 'nope' });
    expectEnvelope(res, 400);
  });
});
