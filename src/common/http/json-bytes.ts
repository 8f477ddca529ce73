import type { Express, Response } from 'express';
import { freeBuffers } from './spent-buffers.js';

/**
 * An answer already serialized (UTF-8 JSON), in pieces: express sends these bytes as they
 * are. Pieces, so that a line's bytes from its worker are not copied into one more buffer
 * for an answer no one revalidates (below).
 */
export class JsonBytes {
  readonly length: number;

  /** `spent`: ArrayBuffers under the chunks that nothing reads once they are sent (JsonText). */
  constructor(
    readonly chunks: readonly Buffer[],
    readonly spent: readonly ArrayBuffer[] = [],
  ) {
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    this.length = length;
  }

  /** The answer as one buffer. */
  get bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
  }
}

/**
 * Lets `res.json()` send JsonBytes: Nest hands every object a handler (or interceptor)
 * returns to `res.json`, which would serialize it again. The bytes go through express's
 * `res.send`, so Content-Length, and 304 answers for the ETag the envelope set, work as
 * for any JSON answer. Only this app's response prototype is changed.
 */
export function acceptJsonBytes(app: Express): void {
  const response = app.response as Response;
  const json = response.json;
  response.json = function sendJson(this: Response, body?: unknown): Response {
    if (!(body instanceof JsonBytes)) return json.call(this, body);
    // Freed once the last byte is handed to the socket ('finish': compression has read
    // every chunk by then); a response cut short leaves them to the garbage collector.
    if (body.spent.length > 0) this.once('finish', () => freeBuffers(body.spent));
    if (this.get('Content-Type') === undefined)
      this.set('Content-Type', 'application/json; charset=utf-8');
    // GET and HEAD answers go through `send` whole: their ETag and 304 (read-etag.ts).
    const method = this.req.method;
    if (body.chunks.length === 1 || method === 'GET' || method === 'HEAD')
      return this.send(body.bytes);
    this.set('Content-Length', String(body.length));
    for (const chunk of body.chunks) this.write(chunk);
    this.end();
    return this;
  };
}
