import { once } from 'node:events';
import { type Agent, request } from 'node:http';

/** A request kept in flight by a body that is only partly sent. */
export interface HeldRequest {
  /** Sends the rest of the body; the answer's status. */
  finish(): Promise<number>;
  /** Sends the next `count` bytes of the body (not the last one). */
  sendMore(count: number): void;
  /** The answer's status (or 0 when the connection closed without one), whenever it comes. */
  answered: Promise<number>;
}

/**
 * POSTs a JSON body of which only the first bytes are sent. It asks for `100 Continue`, which
 * the server sends just before its request listener runs, in the same turn; with the app in
 * this process, once the client sees it, admission decided. A request admission refused is
 * answered at once instead (`answered` then resolves with its status).
 */
export async function holdRequest(
  base: string,
  agent: Agent,
  path: string,
  headers: Record<string, string>,
  body = JSON.stringify({ email: 'nobody@example.test', password: 'x'.repeat(12) }),
): Promise<HeldRequest> {
  const req = request(`${base}${path}`, {
    method: 'POST',
    agent,
    headers: {
      ...headers,
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      Expect: '100-continue',
    },
  });
  const answered = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(res.statusCode ?? 0));
    });
    // A connection closed without an answer (a cut body, or an answer cut short).
    req.on('error', () => resolve(0));
  });
  await Promise.race([once(req, 'continue'), answered]);
  let sent = 5;
  req.write(body.slice(0, sent));
  return {
    finish: () => (req.end(body.slice(sent)), answered),
    sendMore: (count) => {
      const next = Math.min(sent + count, body.length - 1);
      req.write(body.slice(sent, next));
      sent = next;
    },
    answered,
  };
}
