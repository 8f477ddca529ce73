/**
 * Whether an `If-Match` header lets a change of the state tagged `current` through
 * (RFC 9110): no header (or an empty one), `*`, or a list naming `current`. Clients send a
 * tag in any of three forms (`3`, `"3"`, weak `W/"3"`); `bare` strips what else a tag
 * may carry that does not change the state it names (a model's lock, model-lock.ts).
 */
export function ifMatchNames(
  header: string | undefined,
  current: string,
  bare: (tag: string) => string = (tag) => tag,
): boolean {
  if (header === undefined || header.trim() === '') return true;
  return header.split(',').some((raw) => {
    const tag = bare(
      raw
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1'),
    );
    return tag === '*' || tag === current;
  });
}
