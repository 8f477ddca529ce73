/**
 * Why `path` is not a safe relative path inside an archive, or null when it is one.
 * Accepted paths are already canonical (no `.`/empty segments), so a name means one file.
 */
export function unsafePathReason(path: string): string | null {
  if (path.length === 0) return 'is empty';
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
