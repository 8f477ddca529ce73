import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a body may take (AppConfig.admission). */
export interface BodyTiming {
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  bodyMaxMs: number;
}

/** How often the bodies in progress are looked at: a cut comes at most this late. */
const CHECK_EVERY_MS = 250;

interface Watched {
  req: IncomingMessage;
  res: ServerResponse;
  startedAt: number;
  /** The socket's bytesRead at admission: what arrived since is this body's. */
  bytesAtStart: number;
  /** Time the client was not the one waited for (the app had not taken what had arrived). */
  excusedMs: number;
  lastCheck: number;
}

/** Did the request announce a body (a length above 0, or chunks)? */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Read deadlines of admitted request bodies (docs/adr/0150-admission-keys-and-slow-bodies.md):
 * a body must have arrived `bodyTimeoutMs` after admission, plus one second per
 * `bodyMinBytesPerSecond` bytes received, and never later than `bodyMaxMs`. A body past its
 * deadline is cut: a 408 when nothing was answered yet, and the connection closed, so its
 * in-flight slot is free again. The bytes come from the socket's counter: listening to the
 * body would take it from the app. Time when the app itself had not taken what had arrived
 * (a guard still running before a route reads its own body) does not count against the client.
 * One timer for all, running only while bodies are in progress.
 */
export class BodyDeadlines {
  private readonly watched = new Set<Watched>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly timing: BodyTiming,
    private readonly cut: (req: IncomingMessage, res: ServerResponse) => void,
    private readonly now: () => number = Date.now,
  ) {}

  watch(req: IncomingMessage, res: ServerResponse): void {
    const now = this.now();
    const entry: Watched = {
      req,
      res,
      startedAt: now,
      bytesAtStart: req.socket.bytesRead,
      excusedMs: 0,
      lastCheck: now,
    };
    this.watched.add(entry);
    res.once('close', () => this.unwatch(entry));
    if (this.timer === null) {
      this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Bodies in progress (for tests and metrics). */
  get size(): number {
    return this.watched.size;
  }

  private unwatch(entry: Watched): void {
    this.watched.delete(entry);
    if (this.watched.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private check(): void {
    const now = this.now();
    for (const entry of this.watched) {
      const { req } = entry;
      if (req.complete || req.socket.destroyed) {
        this.unwatch(entry);
        continue;
      }
      // Bytes waiting in the request's buffer: the app is behind, not the client.
      if (req.readableLength > 0) entry.excusedMs += now - entry.lastCheck;
      entry.lastCheck = now;
      if (now > this.deadlineOf(entry)) {
        this.unwatch(entry);
        this.cut(req, entry.res);
      }
    }
  }

  private deadlineOf(entry: Watched): number {
    const { bodyTimeoutMs, bodyMinBytesPerSecond, bodyMaxMs } = this.timing;
    const received = entry.req.socket.bytesRead - entry.bytesAtStart;
    const earned = (received / bodyMinBytesPerSecond) * 1000;
    const allowed = Math.min(bodyTimeoutMs + earned, bodyMaxMs);
    return entry.startedAt + entry.excusedMs + allowed;
  }
}
