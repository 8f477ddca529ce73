import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../support/examples.js';
import { ensureBuilt, jsonLines, startBuiltServer } from '../support/built-server.js';
import { stopProcess } from '../support/processes.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** Start-up as a newcomer meets it: the built server as its own process. */
describe('start-up of the built server', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase();
  }, 180_000);
  afterAll(() => database?.drop());

  it('on an empty database without ADMIN_* says how to create the first admin, and where it listens', async () => {
    const server = await startBuiltServer(
      {
        NODE_ENV: 'test',
        DATA_DIR: database.dataDir,
        JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      },
      database.dataDir,
    );
    try {
      const login = await fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'change-me-please' }),
      });
      expect(login.status).toBe(403);
      const lines = jsonLines(server.output());
      const hint = lines.filter((line) => String(line.msg).startsWith('No user exists'));
      expect(hint).toHaveLength(1);
      expect(hint[0]).toMatchObject({ level: 'warn' });
      expect(String(hint[0]!.msg)).toContain('ADMIN_EMAIL / ADMIN_PASSWORD');
      expect(String(hint[0]!.msg)).toContain('create-user');
      // listen(port) binds every interface: the line says so, not a loopback address.
      const port = new URL(server.url).port;
      const listening = lines.find((line) => String(line.msg).startsWith('Listening on'));
      expect(listening).toMatchObject({ level: 'info', address: `http://*:${port}` });
      expect(String(listening!.msg)).toMatch(new RegExp(`^Listening on http://\\*:${port} `));
    } finally {
      await stopProcess(server.child, 'SIGKILL');
    }
  }, 120_000);

  it('a bad configuration is one fatal line with a text level, like every other line', async () => {
    const child = spawn(process.execPath, [join(REPO_DIR, 'dist', 'src', 'main.js')], {
      cwd: database.dataDir,
      env: { PATH: process.env.PATH ?? '', ADMIN_EMAIL: 'admin@example.com' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    const lines = jsonLines(output);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'fatal' });
    expect(String(lines[0]!.msg)).toContain('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }, 60_000);
});
