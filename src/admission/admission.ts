import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { statusText } from '../common/envelope/envelope.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../logging/request-context.js';
import { clientAddress, clientKey, type TrustProxy } from '../rate-limit/client-key.js';

export interface AdmissionLimits {
  /** Requests one credential (or, without one, one client address) may have in flight. */
  perClient: number;
  /** Requests the whole process may have in flight. */
  total: number;
}

/** `client`: the caller's own concurrency (429); `server`: the process's (503). */
export type Refusal = 'client' | 'server';

/** One second: in-flight requests of this service finish in milliseconds to a few seconds. */
const RETRY_AFTER_SECONDS = '1';

/**
 * The error envelope (docs/api.md), built once: a refusal must cost next to nothing. ASCII,
 * so its length in characters is its length in bytes; a string (not a Buffer) lets Node
 * send the head and the body in one write.
 */
function problem(status: number, code: string, message: string): string {
  const errors = [{ code, message }];
  return JSON.stringify({
    code: status,
    message: statusText(status),
    data: null,
    links: {},
    errors,
  });
}

const REFUSALS: Record<Refusal, { status: number; body: string }> = {
  client: {
    status: 429,
    body: problem(
      429,
      'too_many_in_flight',
      'Too many requests of this credential (or client address) are in progress; retry when one has finished',
    ),
  },
  server: {
    status: 503,
    body: problem(
      503,
      'server_busy',
      'The service has too many requests in progress; retry shortly',
    ),
  },
};

/**
 * Probes and metrics are never refused (nor counted): a busy process is alive and
 * observable. Exact paths: a prefix (`/health/../v1/…`) would let any request skip the count.
 */
const PROBES = new Set(['/health/live', '/health/ready', '/metrics']);

function isProbe(url: string): boolean {
  const query = url.indexOf('?');
  return PROBES.has(query === -1 ? url : url.slice(0, query));
}

/**
 * Admission in front of express (docs/adr/0053-admission-before-the-pipeline.md): counts the
 * requests in flight per client key and in total, and refuses past either limit with a
 * problem written straight to the socket, before express, Nest, logging, compression,
 * authentication or validation spend anything on it (~2.4 ms of main thread per request).
 * A slot is released when the response closes (answered, or the client went away).
 */
export class Admission {
  private readonly perKey = new Map<string, number>();
  private inFlight = 0;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly trust: TrustProxy,
    private readonly refused: (refusal: Refusal) => void,
  ) {}

  /**
   * What a tenant cannot forge for another: the raw credential (Authorization is the only
   * place one is read from; no cookies), else the client address (an IPv6 /64 is one client).
   * The prefixes keep a credential from ever naming an address's count.
   */
  keyOf(req: IncomingMessage): string {
    const credential = req.headers.authorization;
    if (credential) return `credential:${credential}`;
    return `address:${clientKey(clientAddress(req, this.trust))}`;
  }

  /** The request listener: admits (and calls `next`, express) or answers the refusal itself. */
  listener(next: RequestListener): RequestListener {
    return (req, res) => {
      if (isProbe(req.url ?? '')) return next(req, res);
      const key = this.keyOf(req);
      const held = this.perKey.get(key) ?? 0;
      const refusal: Refusal | null =
        held >= this.limits.perClient
          ? 'client'
          : this.inFlight >= this.limits.total
            ? 'server'
            : null;
      if (refusal) return this.refuse(req, res, refusal);
      this.perKey.set(key, held + 1);
      this.inFlight++;
      res.once('close', () => this.release(key));
      next(req, res);
    };
  }

  /** Puts this admission in front of the server's one request listener (express). */
  install(server: Server): void {
    const [express, ...others] = server.listeners('request') as RequestListener[];
    if (!express || others.length > 0) throw new Error('Admission expects express alone');
    server.removeAllListeners('request');
    server.on('request', this.listener(express));
  }

  private release(key: string): void {
    this.inFlight--;
    const held = (this.perKey.get(key) ?? 1) - 1;
    if (held > 0) this.perKey.set(key, held);
    else this.perKey.delete(key);
  }

  /**
   * The body of a refused request is never read into memory: Node discards it as it arrives
   * once the answer is sent, keeping the connection for the client's retry.
   */
  private refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
    const { status, body } = REFUSALS[refusal];
    this.refused(refusal);
    // Headers as a flat list: Node copies them as they are (no per-name bookkeeping).
    res.writeHead(status, [
      'Content-Type',
      'application/json; charset=utf-8',
      'Content-Length',
      String(body.length),
      'Cache-Control',
      'no-store',
      'Retry-After',
      RETRY_AFTER_SECONDS,
      REQUEST_ID_HEADER,
      requestIdOf(req),
    ]);
    res.end(body, 'latin1');
  }
}
