import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { statusText } from '../common/envelope/envelope.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../logging/request-context.js';
import type { AdmissionKey, AdmissionKeys } from './admission-keys.js';
import { BodyDeadlines, type BodyTiming, hasBody } from './body-deadlines.js';

export interface AdmissionLimits {
  /** Requests one verified credential (or, without one, one client address) may have in flight. */
  perClient: number;
  /** Requests the whole process may have in flight. */
  total: number;
  /** Of `total`, what requests without a verified credential may hold together. */
  anonymous: number;
}

/**
 * `client`: the caller's own concurrency (429); `anonymous`: the share of requests without
 * a verified credential is full (503); `server`: the process's (503); `body`: a body that
 * did not arrive in time (408, docs/adr/0150).
 */
export type Refusal = 'client' | 'anonymous' | 'server' | 'body';

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

const SERVER_BUSY = {
  status: 503,
  body: problem(503, 'server_busy', 'The service has too many requests in progress; retry shortly'),
};

const REFUSALS: Record<Refusal, { status: number; body: string }> = {
  client: {
    status: 429,
    body: problem(
      429,
      'too_many_in_flight',
      'Too many requests of this credential (or client address) are in progress; retry when one has finished',
    ),
  },
  // The same answer as a full process: a stranger learns nothing about the split.
  anonymous: SERVER_BUSY,
  server: SERVER_BUSY,
  body: {
    status: 408,
    body: problem(
      408,
      'body_timeout',
      'The request body did not arrive in time (too slow); send it again, faster',
    ),
  },
};

/**
 * A body cut before anything was answered gets this, written straight to the socket (the
 * pipeline may still hold the response: Node's own request timeout does the same).
 */
const bodyTimeoutAnswer = (requestId: string): string =>
  [
    'HTTP/1.1 408 Request Timeout',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${REFUSALS.body.body.length}`,
    'Cache-Control: no-store',
    'Connection: close',
    `${REQUEST_ID_HEADER}: ${requestId}`,
    '',
    REFUSALS.body.body,
  ].join('\r\n');

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
 * requests in flight per client key, in the anonymous share and in total, and refuses past a
 * limit with a problem written straight to the socket, before express, Nest, logging,
 * compression, authentication or validation spend anything on it (~2.4 ms of main thread per
 * request). A slot is released when the response closes (answered, or the client went away);
 * a body that does not arrive in time is cut, which closes it too
 * (docs/adr/0150-admission-keys-and-slow-bodies.md).
 */
export class Admission {
  private readonly perKey = new Map<string, number>();
  private inFlight = 0;
  private anonymousInFlight = 0;
  private readonly bodies: BodyDeadlines;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly keys: AdmissionKeys,
    timing: BodyTiming,
    private readonly refused: (refusal: Refusal) => void,
  ) {
    this.bodies = new BodyDeadlines(timing, (req, res) => this.cutBody(req, res));
  }

  /** The request listener: admits (and calls `next`, express) or answers the refusal itself. */
  listener(next: RequestListener): RequestListener {
    return (req, res) => {
      if (isProbe(req.url ?? '')) return next(req, res);
      const admission = this.keys.of(req);
      const refusal = this.refusalOf(admission);
      if (refusal) return this.refuse(req, res, refusal);
      this.perKey.set(admission.key, (this.perKey.get(admission.key) ?? 0) + 1);
      this.inFlight++;
      if (admission.anonymous) this.anonymousInFlight++;
      res.once('close', () => this.release(admission));
      if (hasBody(req) && !req.complete) this.bodies.watch(req, res);
      next(req, res);
    };
  }

  /** The client's own limit first: a client over it is told so even when the process is full. */
  private refusalOf({ key, anonymous }: AdmissionKey): Refusal | null {
    if ((this.perKey.get(key) ?? 0) >= this.limits.perClient) return 'client';
    if (anonymous && this.anonymousInFlight >= this.limits.anonymous) return 'anonymous';
    if (this.inFlight >= this.limits.total) return 'server';
    return null;
  }

  /** Puts this admission in front of the server's one request listener (express). */
  install(server: Server): void {
    const [express, ...others] = server.listeners('request') as RequestListener[];
    if (!express || others.length > 0) throw new Error('Admission expects express alone');
    server.removeAllListeners('request');
    server.on('request', this.listener(express));
  }

  private release({ key, anonymous }: AdmissionKey): void {
    this.inFlight--;
    if (anonymous) this.anonymousInFlight--;
    const held = (this.perKey.get(key) ?? 1) - 1;
    if (held > 0) this.perKey.set(key, held);
    else this.perKey.delete(key);
  }

  /** A body past its deadline: the 408 if nothing was answered yet, and the connection closed. */
  private cutBody(req: IncomingMessage, res: ServerResponse): void {
    this.refused('body');
    const socket = req.socket;
    if (!res.headersSent && socket.writable)
      socket.write(bodyTimeoutAnswer(requestIdOf(req)), 'latin1');
    socket.destroy();
  }

  /**
   * The body of a refused request is never read into memory: once the answer is sent, Node
   * discards what has arrived and, when more of the body is still to come, closes the
   * connection.
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
