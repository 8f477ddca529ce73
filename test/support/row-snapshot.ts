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
  const [users] = (await dataSource
    .query('SELECT COUNT(*) AS n FROM users WHERE disabled_at IS NOT NULL')
    .catch(() => [{ n: 'n/a' }])) as { n: number | string }[];
  snapshot.disabled_users = String(users.n);
  return snapshot;
}
