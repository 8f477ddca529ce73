import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../support/examples.js';
import {
  ensureBuilt,
  jsonLines,
  startBuiltServer,
  type BuiltServer,
} from '../support/built-server.js';
import { freePort, stopProcess } from '../support/processes.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** Polls `condition` every 20 ms until it holds (the test's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

const ADMIN = { email: 'dotenv-admin@example.test', password: 'from-the-dotenv-file' };

describe('the built server as a real process', () => {
  let database: TestDatabase;
  let server: BuiltServer;

  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase();
    // The .env file beside the process; variables of the environment win over it.
    writeFileSync(
      join(database.dataDir, '.env'),
      `ADMIN_EMAIL=${ADMIN.email}\nADMIN_PASSWORD=${ADMIN.password}\nPORT=1\nLOG_LEVEL=debug\n`,
    );
    server = await startBuiltServer(
      {
        NODE_ENV: 'test',
        DATA_DIR: database.dataDir,
        JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
        LOGIN_RATE_LIMIT: '100000',
        // 200 requests of one client in flight at once: admission must let them all in.
        CLIENT_IN_FLIGHT_LIMIT: '1000',
        SERVER_IN_FLIGHT_LIMIT: '1000',
        // …and keep their half-sent bodies for as long as the test holds them.
        BODY_READ_TIMEOUT_MS: '120000',
        SHUTDOWN_TIMEOUT: '20',
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      },
      database.dataDir,
    );
  }, 180_000);
  afterAll(async () => {
    if (server) await stopProcess(server.child, 'SIGKILL');
    await database?.drop();
  });

  it('on SIGTERM answers all 200 requests already received, then exits 0', async () => {
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    // 200 logins whose bodies are only half sent: received (headers read), not finished.
    const body = JSON.stringify(ADMIN);
    const half = Math.floor(body.length / 2);
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const requests = Array.from({ length: 200 }, () => {
      const req = request(`${server.url}/v1/login`, {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      const answered = new Promise<{ status: number; text: string }>((resolve) => {
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', (error) => resolve({ status: 0, text: error.message }));
      });
      req.write(body.slice(0, half));
      return { req, answered };
    });
    const linesWith = (msg: string) =>
      jsonLines(server.output()).filter((line) => line.msg === msg);
    // The server logs each request it receives (LOG_LEVEL=debug): wait for all 200.
    await until(
      () => linesWith('Request received').filter((l) => l.method === 'POST').length >= 200,
    );
    server.child.kill('SIGTERM');
    await until(() => linesWith('Shutting down: draining requests').length === 1);
    // Not accepting any more: a new connection is refused.
    await expect(fetch(`${server.url}/health/live`)).rejects.toThrow();
    for (const { req } of requests) req.end(body.slice(half));
    const answers = await Promise.all(requests.map(({ answered }) => answered));
    const failed = answers.filter((answer) => answer.status !== 201);
    expect(failed, JSON.stringify(failed[0])).toEqual([]);
    expect(await server.exited).toBe(0);
    const lines = jsonLines(server.output());
    expect(lines.filter((line) => line.route === '/v1/login' && line.status === 201)).toHaveLength(
      200,
    );
    expect(lines.at(-1)).toMatchObject({ msg: 'Shut down' });
  }, 120_000);

  it('an unreachable database at start-up is one JSON line and exit code 1', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(REPO_DIR, 'dist', 'src', 'main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: `postgres://postgres:hunter2-secret@127.0.0.1:${port}/configurator`,
        JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    const lines = jsonLines(output);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'fatal',
      host: '127.0.0.1',
      port,
      database: 'configurator',
    });
    expect(String(lines[0].msg)).toMatch(/^Database unreachable: .*ECONNREFUSED/);
    expect(output).not.toContain('hunter2-secret');
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);
});
