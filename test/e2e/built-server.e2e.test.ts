import { spawn } from 'node:child_process';
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
      `ADMIN_EMAIL=${ADMIN.email}\nADMIN_PASSWORD=${ADMIN.password}\nPORT=1\nLOG_LEVEL=log\n`,
    );
    server = await startBuiltServer(
      {
        NODE_ENV: 'test',
        DATA_DIR: database.dataDir,
        JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
        LOGIN_RATE_LIMIT: '100000',
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
    const login = () =>
      fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(ADMIN),
      }).then(
        async (res) => ({ status: res.status, body: await res.text() }),
        (error: Error) => ({ status: 0, body: error.message }),
      );
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    // 200 logins (argon2id each: they queue up on the server's CPU)
    const requests = Array.from({ length: 200 }, login);
    const first = await Promise.race(requests);
    expect(first.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    const answers = await Promise.all(requests);
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.filter((status) => status !== 201),
      JSON.stringify(answers.find((a) => a.status !== 201)),
    ).toEqual([]);
    expect(await server.exited).toBe(0);
    const lines = jsonLines(server.output());
    const messages = lines.map((line) => line.msg);
    expect(messages).toEqual(
      expect.arrayContaining(['Shutting down: draining requests', 'Shut down']),
    );
    const logins = lines.filter((line) => line.route === '/v1/login' && line.status === 201);
    expect(logins).toHaveLength(200);
    // the signal really met requests in flight: some were answered after it
    const draining = lines.findIndex((line) => line.msg === 'Shutting down: draining requests');
    expect(
      lines.slice(draining).filter((line) => line.route === '/v1/login').length,
    ).toBeGreaterThan(0);
    for (const line of lines) expect(typeof line.level).toBe('string');
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
