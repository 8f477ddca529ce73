import { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';
import { JsonText } from '../http/json-text.js';
import { JsonBytes } from '../http/json-bytes.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Containers above this depth are written member by member, so that a JsonText there
 * (an answer's `data`, a model's `definition`, a cart page's lines) goes in as its bytes;
 * at it, `JSON.stringify` writes them (a JsonText deeper is parsed by its `toJSON`).
 */
const SPLIT_DEPTH = 3;

/**
 * The UTF-8 bytes of `JSON.stringify(value)`, in pieces: JsonText's own, never parsed or
 * copied. The spent buffers of the JsonTexts put in are added to `spent`.
 */
export function jsonChunks(value: unknown, spent: ArrayBuffer[] = []): Buffer[] {
  const out = new Pieces(spent);
  write(value, 0, out);
  return out.done();
}

/** Text collected between JsonText pieces, turned into bytes at each. */
class Pieces {
  private readonly chunks: Buffer[] = [];
  private text = '';

  constructor(private readonly spent: ArrayBuffer[]) {}

  add(text: string): void {
    this.text += text;
  }

  bytes(text: JsonText): void {
    this.flush();
    for (const chunk of text.chunks) this.chunks.push(chunk);
    for (const buffer of text.spent) this.spent.push(buffer);
  }

  done(): Buffer[] {
    this.flush();
    return this.chunks;
  }

  private flush(): void {
    if (this.text.length === 0) return;
    this.chunks.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }
}

function write(value: unknown, depth: number, out: Pieces): void {
  if (value instanceof JsonText) return out.bytes(value);
  if (depth >= SPLIT_DEPTH || !splittable(value)) {
    // As JSON.stringify writes an array element: undefined, functions, symbols → null.
    out.add(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    out.add('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.add(',');
      write(value[i], depth + 1, out);
    }
    out.add(']');
    return;
  }
  out.add('{');
  let first = true;
  for (const [key, member] of Object.entries(value)) {
    // Members JSON.stringify leaves out of an object.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol')
      continue;
    out.add(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    write(member, depth + 1, out);
  }
  out.add('}');
}

/** Arrays and ordinary objects (class instances too) without their own `toJSON`. */
function splittable(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  return Object.prototype.toString.call(value) === '[object Object]';
}

/**
 * An answer's bytes as express sends them: held whole (JsonBytes: Content-Length, and on
 * a GET express's weak ETag, so 304s) when they end within `holdBytes`, else streamed as
 * the response pulls them (no Content-Length, no ETag: the headers go before the last
 * byte exists). A stream that fails after the first byte cuts the connection. `spent`
 * (jsonChunks) is freed once held bytes are sent; a streamed answer leaves it to the
 * garbage collector.
 */
export async function heldOrStreamed(
  chunks: Iterable<Buffer> | AsyncIterable<Buffer>,
  holdBytes: number,
  spent: readonly ArrayBuffer[] = [],
): Promise<JsonBytes | StreamableFile> {
  const iterator =
    Symbol.asyncIterator in chunks
      ? chunks[Symbol.asyncIterator]()
      : (chunks[Symbol.iterator]() as Iterator<Buffer>);
  const held: Buffer[] = [];
  let length = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) break;
    held.push(next.value);
    length += next.value.length;
    if (length > holdBytes) {
      const rest = restOf(held, iterator);
      return new StreamableFile(Readable.from(rest, { objectMode: false }), { type: JSON_TYPE });
    }
  }
  return new JsonBytes(held, spent);
}

async function* restOf(
  held: Buffer[],
  iterator: Iterator<Buffer> | AsyncIterator<Buffer>,
): AsyncGenerator<Buffer> {
  try {
    yield* held.splice(0);
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    // Stopped early (the client went away): the source stops as well.
    await iterator.return?.();
  }
}
