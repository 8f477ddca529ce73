/**
 * The longest path a model's files and images may have, in UTF-16 code units (never fewer
 * than its characters): stored assets keep their path in a varchar(500) column, which
 * PostgreSQL enforces and SQLite does not, so a longer one was a 500 on one database only.
 */
export const MAX_PATH_LENGTH = 500;

/**
 * Why `path` is not a safe relative path inside an archive, or null when it is one.
 * Accepted paths are already canonical (no `.`/empty segments), so a name means one file.
 */
export function unsafePathReason(path: string): string | null {
  if (path.length === 0) return 'is empty';
  if (path.length > MAX_PATH_LENGTH) return `is longer than ${MAX_PATH_LENGTH} characters`;
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'is absolute';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'contains a control character';
  const segments = path.replace(/\/$/, '').split('/');
  if (segments.includes('..')) return 'contains a ".." segment';
  if (segments.some((segment) => segment === '' || segment === '.'))
    return 'contains an empty or "." segment';
  return null;
}
