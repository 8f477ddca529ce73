import { request as httpRequest, type Server } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { heldOrStreamed, jsonChunks } from '../../src/common/envelope/json-chunks.js';
import { JsonBytes, acceptJsonBytes } from '../../src/common/http/json-bytes.js';
import { JsonText } from '../../src/common/http/json-text.js';

/** Bytes in an ArrayBuffer of their own, as a line arrives from its worker. */
const ownBytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));
const viewOf = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

let server: Server | undefined;
afterEach(() => server?.close());

/** An express app answering one JsonBytes the way the envelope hands it over. */
async function answered(
  body: JsonBytes,
  compressed = false,
): Promise<{ text: string; finished: Promise<void> }> {
  const app = express();
  acceptJsonBytes(app);
  // As the app compresses answers (app.setup.ts): in zlib's pool, after `write` returned.
  if (compressed) app.use(compression({ threshold: 1024, level: 1 }));
  let finish!: () => void;
  const finished = new Promise<void>((done) => (finish = done));
  app.post('/', (_req, res) => {
    res.once('finish', () => setImmediate(finish));
    res.json(body);
  });
  server = app.listen(0);
  await new Promise((done) => server!.once('listening', done));
  const { port } = server.address() as { port: number };
  const text = await new Promise<string>((resolve, reject) => {
    const headers = compressed ? { 'Accept-Encoding': 'br' } : {};
    const req = httpRequest({ port, method: 'POST', path: '/', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const br = res.headers['content-encoding'] === 'br';
        resolve((br ? brotliDecompressSync(bytes) : bytes).toString('utf8'));
      });
    });
    req.on('error', reject);
    req.end();
  });
  return { text, finished };
}

describe('spent buffers (a preview line’s bytes from its worker)', () => {
  it('are collected from the JsonTexts an answer holds, and only theirs', async () => {
    const line = ownBytes('{"a":1}');
    const other = ownBytes('[2]');
    const answer = {
      data: new JsonText(viewOf(line)).spending([line.buffer]),
      more: new JsonText(viewOf(other)),
    };
    const spent: ArrayBuffer[] = [];
    const held = await heldOrStreamed(jsonChunks(answer, spent), 1 << 20, spent);
    expect(spent).toEqual([line.buffer]);
    expect(held).toBeInstanceOf(JsonBytes);
    expect((held as JsonBytes).spent).toEqual([line.buffer]);
    expect(Buffer.concat((held as JsonBytes).chunks).toString()).toBe(
      '{"data":{"a":1},"more":[2]}',
    );
  });

  it.each([false, true])(
    'are sent whole (compressed: %s), then detached (freed) once the answer is finished',
    async (compressed) => {
      const line = ownBytes(`{"line":"${'x'.repeat(200_000)}"}`);
      const problems = ownBytes('"errors":[],"warnings":[]');
      const expected = `${Buffer.from(line).toString()}|${Buffer.from(problems).toString()}`;
      const body = new JsonBytes(
        [viewOf(line), Buffer.from('|'), viewOf(problems)],
        [line.buffer as ArrayBuffer, problems.buffer as ArrayBuffer],
      );
      const { text, finished } = await answered(body, compressed);
      expect(text).toBe(expected);
      await finished;
      expect((line.buffer as ArrayBuffer).detached).toBe(true);
      expect((problems.buffer as ArrayBuffer).detached).toBe(true);
    },
  );

  it('leaves the buffers of an answer without spent ones alone', async () => {
    const line = ownBytes('{"kept":true}');
    const { text, finished } = await answered(new JsonBytes([viewOf(line), Buffer.from(' ')]));
    expect(text).toBe('{"kept":true} ');
    await finished;
    expect((line.buffer as ArrayBuffer).detached).toBe(false);
  });

  it('skips shared memory, which cannot be detached', () => {
    const shared = new SharedArrayBuffer(4);
    expect(new JsonText(Buffer.from('1')).spending([shared]).spent).toEqual([]);
  });
});
