import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A database that exists for one test file only. */
export interface TestDatabase {
  /** DATABASE_URL for the app, or undefined for SQLite. */
  url: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * With DATABASE_URL set (a PostgreSQL server), a fresh database with a unique name is
 * created on that server and dropped afterwards; otherwise a fresh SQLite file in a
 * temporary folder. Nothing depends on state left by an earlier run.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'configurator-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { url: undefined, dataDir, drop: async () => removeDir() };

  const name = `cfg_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    drop: async () => {
      await withAdminClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
      removeDir();
    },
  };
}

async function withAdminClient(
  serverUrl: string,
  run: (client: pg.Client) => Promise<unknown>,
): Promise<void> {
  const url = new URL(serverUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}
