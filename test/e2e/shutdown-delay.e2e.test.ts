import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppConfig } from '../../src/config/app-config.js';
import { jsonLines } from '../support/built-server.js';
import { loginAdmin } from '../support/factories.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** One GET on a connection of its own; resolves with the status, or 0 and the error. */
function get(
  url: string,
  token: string,
  agent: Agent,
): Promise<{ status: number; error?: string; at: number }> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: { Authorization: `Bearer ${token}` } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, at: performance.now() }));
    });
    req.on('error', (error) => resolve({ status: 0, error: error.message, at: performance.now() }));
    req.end();
  });
}

describe('SHUTDOWN_DELAY: SIGTERM while requests are on their way (built server)', () => {
  let server: ServerProcess;

  // The default SHUTDOWN_DELAY, as a plain `node dist/src/main.js` runs.
  const defaultDelay = String(new AppConfig({ JWT_SECRET: 'x'.repeat(32) }).shutdownDelayMs / 1000);
  beforeAll(async () => {
    // 200 requests of one token in flight at once: admission must let them all in.
    server = await startServerProcess({
      LOG_LEVEL: 'log',
      SHUTDOWN_DELAY: defaultDelay,
      CLIENT_IN_FLIGHT_LIMIT: '1000',
      SERVER_IN_FLIGHT_LIMIT: '1000',
    });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('SIGTERM 100 ms after 200 requests were sent: none fails, readiness 503 at once, exit 0', async () => {
    const admin = await loginAdmin(server);
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const url = `${server.baseUrl}/v1/users/me`;
    const sent = Array.from({ length: 200 }, () => get(url, admin.token, agent));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    // Readiness turns at once, while the server still accepts and serves.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ready = await fetch(`${server.baseUrl}/health/ready`);
    expect(ready.status).toBe(503);
    const late = await get(url, admin.token, agent);
    expect(late.status).toBe(200);

    const answers = await Promise.all(sent);
    const failed = answers.filter((answer) => answer.status !== 200);
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    const exitCode = await new Promise<number | null>((resolve) => {
      if (server.child.exitCode !== null) resolve(server.child.exitCode);
      else server.child.once('exit', (code) => resolve(code));
    });
    expect(exitCode).toBe(0);
    // The listening socket closed only after the delay.
    expect(defaultDelay).toBe('2');
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(2_000);
    const messages = jsonLines(server.output()).map((line) => line.msg);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Shutting down: not ready, still serving',
        'Shutting down: draining requests',
        'Shut down',
      ]),
    );
  }, 120_000);
});
