import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { checkResponse } from './openapi-validator.js';

/** Every way an answer of the test apps of this test file broke the document. */
export const contractViolations: string[] = [];

/** How many answers were checked (a test file with a test app checks at least one). */
export const recorded = { count: 0 };

/** The body as the app meant it: the recorder sits outside the app's compression. */
function decoded(body: Buffer, encoding: unknown): Buffer {
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  return body;
}

/**
 * Express middleware for the test apps: records each answer (status, content type,
 * body) and checks it against openapi.json. test/support/contract-setup.ts fails the
 * test file when anything was recorded in `contractViolations`.
 */
export function recordResponses() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return write(chunk, ...rest);
    }) as Response['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk);
      return end(chunk, ...rest);
    }) as Response['end'];
    res.on('finish', () => {
      const problems = checkResponse({
        method: req.method,
        url: req.originalUrl,
        status: res.statusCode,
        contentType: String(res.getHeader('content-type') ?? ''),
        body: decoded(Buffer.concat(chunks), res.getHeader('content-encoding')).toString('utf8'),
      });
      recorded.count++;
      contractViolations.push(...problems);
    });
    next();
  };
}
