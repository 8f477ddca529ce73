import { QueryFailedError } from 'typeorm';

/** True when a write failed on a unique index (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string } | undefined;
  const code = driverError?.code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** True when a write referenced a row that does not exist (foreign key). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const code = (error.driverError as { code?: string } | undefined)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'SQLITE_BUSY',
]);
const UNAVAILABLE_MESSAGES =
  /Driver not Connected|database connection is not open|Connection terminated|Cannot use a pool after calling end|timeout exceeded when trying to connect|Query read timeout/i;
/**
 * Past a deadline (docs/adr/0151): no connection in time, no answer in time on the client
 * side, or the server's statement timeout (SQLSTATE 57014), or SQLite's busy timeout.
 */
const TIMEOUT_MESSAGES =
  /timeout exceeded when trying to connect|Query read timeout|terminated due to connection timeout/i;
const TIMEOUT_CODES = new Set(['57014', 'SQLITE_BUSY', 'ETIMEDOUT']);

/**
 * True when the database itself could not be used (down, unreachable, shut down, out of
 * connections, or the connection closed): answered 503, not 500. PostgreSQL SQLSTATE
 * classes 08 (connection exception) and 57P (operator intervention), and 53300.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidates = [error, error instanceof QueryFailedError ? error.driverError : undefined];
  return candidates.some((candidate) => {
    if (candidate === null || typeof candidate !== 'object') return false;
    const code = (candidate as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || code.startsWith('57P'))
        return true;
      if (code === '57014') return true;
      if (code === '53300') return true;
    }
    return candidate instanceof Error && UNAVAILABLE_MESSAGES.test(candidate.message);
  });
}

/**
 * The problem code of a 503 for `error` (isDatabaseUnavailable): `database_timeout` when a
 * deadline passed (the database may be slow or its connections silent), else
 * `database_unavailable`.
 */
export function databaseProblemCode(error: unknown): 'database_timeout' | 'database_unavailable' {
  const candidates = [error, error instanceof QueryFailedError ? error.driverError : undefined];
  const timedOut = candidates.some((candidate) => {
    if (candidate === null || typeof candidate !== 'object') return false;
    const code = (candidate as { code?: unknown }).code;
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return true;
    return candidate instanceof Error && TIMEOUT_MESSAGES.test(candidate.message);
  });
  return timedOut ? 'database_timeout' : 'database_unavailable';
}
