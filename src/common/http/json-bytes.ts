import type { Express, Response } from 'express';

/** An answer already serialized (UTF-8 JSON): express sends these bytes as they are. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
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
    if (this.get('Content-Type') === undefined)
      this.set('Content-Type', 'application/json; charset=utf-8');
    return this.send(body.bytes);
  };
}
