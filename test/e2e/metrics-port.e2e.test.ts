import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** METRICS_PORT: /metrics on a port of its own, which a NetworkPolicy can keep private. */
describe('METRICS_PORT (built server)', () => {
  let server: ServerProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}`;
    server = await startServerProcess({ METRICS_PORT: String(port) });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('serves /metrics on the metrics port only', async () => {
    const scrape = await fetch(`${metricsUrl}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toContain('text/plain');
    expect(await scrape.text()).toContain('http_requests_total');
    expect((await fetch(`${metricsUrl}/v1/users/me`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/metrics`, { method: 'POST' })).status).toBe(404);
    // The API port does not serve it
    const main = await fetch(`${server.baseUrl}/metrics`);
    expect(main.status).toBe(404);
    expect((await fetch(`${server.baseUrl}/health/live`)).status).toBe(200);
  });
});
