import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { TestContext } from './test-app.js';

const TABLES = [
  'users',
  'companies',
  'company_members',
  'suppliers',
  'supplier_members',
  'company_suppliers',
  'models',
  'model_versions',
  'carts',
  'cart_lines',
  'api_tokens',
  'intent_tokens',
  'refresh_token_families',
] as const;

/**
 * Row counts and the newest update of every table a request could change: equal
 * snapshots before and after a refused request show it changed nothing.
 */
export async function rowSnapshot(ctx: TestContext): Promise<Record<string, string>> {
  const dataSource = ctx.app.get(DataSource);
  const snapshot: Record<string, string> = {};
  for (const table of TABLES) {
    const [row] = (await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as {
      n: number | string;
    }[];
    snapshot[table] = String(row.n);
  }
  for (const [name, sql] of [
    ['disabled_users', 'SELECT COUNT(*) AS n FROM users WHERE disabled_at IS NOT NULL'],
  ]) {
    const [row] = (await dataSource.query(sql)) as { n: number | string }[];
    snapshot[name] = String(row.n);
  }
  // Updates change no count: the users' mutable columns, as one digest.
  const users = (await dataSource.query(
    'SELECT id, name, role, password_hash FROM users ORDER BY id',
  )) as unknown[];
  snapshot.users_digest = createHash('sha256').update(JSON.stringify(users)).digest('hex');
  return snapshot;
}
