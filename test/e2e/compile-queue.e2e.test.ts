import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createModelWorld,
  sendModel,
  slowCompileModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

describe('compile worker pool', () => {
  let server: ServerProcess;
  let world: ModelWorld;

  beforeAll(async () => {
    // One worker and no queue: a second compile while one runs is turned away.
    server = await startServerProcess({ COMPILE_WORKERS: '1', COMPILE_QUEUE_SIZE: '0' });
    world = await createModelWorld(server);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('answers 503 with Retry-After when every compiler is busy and the queue is full', async () => {
    const url = `/v1/suppliers/${world.supplier.id}/models`;
    // Bodies prepared first, then sent at once: several compiles overlap.
    const models = Array.from({ length: 8 }, (_, i) => slowCompileModel(`m${i}`, 2000));
    const responses = await Promise.all(
      models.map((model) => sendModel(server, 'post', url, world.supplierMember.token, model)),
    );
    const statuses = responses.map((res) => res.status).sort();
    expect(
      statuses.every((status) => status === 201 || status === 503),
      String(statuses),
    ).toBe(true);
    expect(statuses).toContain(201);
    const busy = responses.find((res) => res.status === 503);
    expect(busy, String(statuses)).toBeDefined();
    expect(busy?.headers['retry-after']).toBe('5');
    expect(busy?.body.errors[0].code).toBe('compile_queue_full');
    expect(server.alive()).toBe(true);
  });
});
