/** What express's `etag fn` setting is called with: the body about to be sent. */
export type EtagFunction = (body: string | Buffer, encoding?: BufferEncoding) => string | undefined;

/**
 * Express's own ETag function (`etag`), used for answers to GET and HEAD only: those are
 * what a client revalidates with If-None-Match. Express hashes every answer otherwise,
 * POST ones included, where it only costs time (a 1,000-question preview is ~0.8 MB).
 * The etag function is not given the request, so `methodOfRequest` answers the method of
 * the one being served (undefined: unknown, and the ETag is made as before).
 */
export function readOnlyEtag(
  etag: EtagFunction,
  methodOfRequest: () => string | undefined,
): EtagFunction {
  return (body, encoding) => {
    const method = methodOfRequest();
    if (method !== undefined && method !== 'GET' && method !== 'HEAD') return undefined;
    return etag(body, encoding);
  };
}
