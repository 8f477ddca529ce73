import pg from 'pg';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';

const ATTEMPT_DELAY_MS = 2_000;

/**
 * Before the app is built: can the database be reached? An unreachable PostgreSQL is
 * one log line naming host, port and database (never the password) and a non-zero
 * exit, rather than a stack trace from deep inside the ORM. Production retries (10
 * attempts, 2 s apart) since the database may start after the service. SQLite is a
 * local file: nothing to wait for.
 */
export async function waitForDatabase(config: AppConfig, logger: Logger): Promise<boolean> {
  if (config.database.type !== 'postgres') return true;
  const url = new URL(config.database.url);
  const where = {
    host: url.hostname,
    port: Number(url.port || 5432),
    database: decodeURIComponent(url.pathname.slice(1)) || url.username,
  };
  const attempts = config.isProduction ? 10 : 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const client = new pg.Client({
      connectionString: config.database.url,
      ssl: config.database.ssl ? { rejectUnauthorized: true } : false,
      connectionTimeoutMillis: 5_000,
    });
    try {
      await client.connect();
      return true;
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      const hint =
        code === '3D000'
          ? `; create it: createdb -h ${where.host} -p ${where.port} ${where.database}`
          : '';
      const last = attempt === attempts;
      logger[last ? 'fatal' : 'warn'](
        { ...where, code, attempt, attempts },
        `Database unreachable: ${message ?? code ?? 'unknown error'}${hint}`,
      );
      if (last) return false;
      await new Promise((resolve) => setTimeout(resolve, ATTEMPT_DELAY_MS));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return false;
}
