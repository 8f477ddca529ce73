import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BodyDeadlines, hasBody } from '../../src/admission/body-deadlines.js';

/** A request whose socket has read `bytesRead` bytes; the test moves them. */
function fakeRequest() {
  const socket = { bytesRead: 100, destroyed: false };
  const req = { socket, complete: false, readableLength: 0, headers: {} };
  const res = new EventEmitter();
  return {
    req: req as unknown as IncomingMessage & typeof req,
    res: res as unknown as ServerResponse,
    socket,
  };
}

describe('BodyDeadlines', () => {
  const timing = { bodyTimeoutMs: 1_000, bodyMinBytesPerSecond: 100, bodyMaxMs: 5_000 };
  let cut: Array<IncomingMessage>;
  let deadlines: BodyDeadlines;

  beforeEach(() => {
    vi.useFakeTimers();
    cut = [];
    deadlines = new BodyDeadlines(timing, (req) => cut.push(req));
  });
  afterEach(() => vi.useRealTimers());

  it('cuts a body that did not arrive within the timeout', () => {
    const { req, res } = fakeRequest();
    deadlines.watch(req, res);
    vi.advanceTimersByTime(900);
    expect(cut).toEqual([]);
    vi.advanceTimersByTime(400);
    expect(cut).toEqual([req]);
    expect(deadlines.size).toBe(0);
  });

  it('extends the deadline by a second per minimum rate of bytes received, up to the maximum', () => {
    const { req, res, socket } = fakeRequest();
    deadlines.watch(req, res);
    // 100 bytes every 0.5 s: twice the minimum rate.
    for (let i = 0; i < 8; i++) {
      vi.advanceTimersByTime(500);
      socket.bytesRead += 100;
    }
    expect(cut).toEqual([]);
    // The maximum holds whatever the rate.
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(500);
      socket.bytesRead += 100;
    }
    expect(cut).toEqual([req]);
  });

  it('does not count against the client the time the app had not taken what arrived', () => {
    const { req, res } = fakeRequest();
    deadlines.watch(req, res);
    req.readableLength = 16_384;
    vi.advanceTimersByTime(3_000);
    expect(cut).toEqual([]);
    req.readableLength = 0;
    vi.advanceTimersByTime(1_300);
    expect(cut).toEqual([req]);
  });

  it('forgets a body once it has arrived or its answer closed', () => {
    const first = fakeRequest();
    const second = fakeRequest();
    deadlines.watch(first.req, first.res);
    deadlines.watch(second.req, second.res);
    first.req.complete = true;
    (second.res as unknown as EventEmitter).emit('close');
    vi.advanceTimersByTime(2_000);
    expect(cut).toEqual([]);
    expect(deadlines.size).toBe(0);
  });

  it('knows which requests announce a body', () => {
    const withHeaders = (headers: Record<string, string>) =>
      ({ headers }) as unknown as IncomingMessage;
    expect(hasBody(withHeaders({ 'content-length': '10' }))).toBe(true);
    expect(hasBody(withHeaders({ 'transfer-encoding': 'chunked' }))).toBe(true);
    expect(hasBody(withHeaders({ 'content-length': '0' }))).toBe(false);
    expect(hasBody(withHeaders({}))).toBe(false);
  });
});
