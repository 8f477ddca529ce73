import { createHash, hash, type Hash } from 'node:crypto';
import type { SliceClock } from './slice-clock.js';

/** Text collected before it is turned into bytes. */
const FLUSH_CHARS = 16 * 1024;

/**
 * The SHA-1 (base64) of an answer's bytes less its unhashed pieces (measurements such
 * as a line's `cache.evaluated_in_ms`), and how many bytes it covers: what a weak ETag
 * is made of.
 */
export interface JsonDigest {
  length: number;
  sha1: string;
}

/** An answer's bytes, and their digest when it was asked for. */
export interface SerializedJson {
  bytes: Buffer;
  digest?: JsonDigest;
}

/** UTF-8 bytes written in pieces (serializeInSlices). */
export class ByteWriter {
  private chunks: Buffer[] = [];
  /** Indexes of chunks left out of the digest. */
  private readonly unhashed = new Set<number>();
  private text = '';
  /** Bytes of the chunks made so far, those taken included. */
  private made = 0;
  /** Chunks taken (streamed): the digest is no longer possible. */
  private taken = false;

  /** Bytes made so far, those taken included (text not yet turned into bytes aside). */
  get byteLength(): number {
    return this.made;
  }

  write(text: string): void {
    this.text += text;
    if (this.text.length >= FLUSH_CHARS) this.flush();
  }

  /** Bytes that are JSON already (JsonText). */
  writeBytes(bytes: Buffer): void {
    this.flush();
    this.push(bytes);
  }

  /** Text that is part of the answer but not of its digest (a measurement). */
  writeUnhashed(text: string): void {
    this.flush();
    this.unhashed.add(this.chunks.length);
    this.push(Buffer.from(text, 'utf8'));
  }

  /**
   * The bytes made since the last call, handed over (a streamed answer); with `all`, the
   * text not yet turned into bytes too. The writer then keeps no digest.
   */
  take(all = false): Buffer[] {
    if (all) this.flush();
    const { chunks } = this;
    this.chunks = [];
    this.unhashed.clear();
    this.taken = true;
    return chunks;
  }

  /**
   * The bytes as one Buffer, and with `digest` their SHA-1. Those of a large answer
   * (more than one piece: a page of 50 cart lines is 40 MB) are copied and hashed piece
   * by piece, pausing when the clock says so: one copy or hash of it all held the event
   * loop for 40–70 ms.
   */
  async finish(clock: SliceClock | undefined, digest: boolean): Promise<SerializedJson> {
    if (this.taken) throw new Error('The bytes were taken: nothing to finish');
    this.flush();
    const { chunks } = this;
    if (chunks.length <= 1 && this.unhashed.size === 0) {
      const bytes = chunks[0] ?? Buffer.alloc(0);
      if (!digest) return { bytes };
      return { bytes, digest: { length: bytes.length, sha1: sha1Base64(bytes) } };
    }
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    const bytes = Buffer.allocUnsafe(length);
    const sha1: Hash | undefined = digest ? createHash('sha1') : undefined;
    let hashed = 0;
    let at = 0;
    for (let i = 0; i < chunks.length; i++) {
      const chunk = chunks[i];
      at += chunk.copy(bytes, at);
      if (sha1 !== undefined && !this.unhashed.has(i)) {
        sha1.update(chunk);
        hashed += chunk.length;
      }
      if (clock?.due()) await clock.pause();
    }
    return { bytes, digest: sha1 && { length: hashed, sha1: sha1.digest('base64') } };
  }

  private flush(): void {
    if (this.text.length === 0) return;
    this.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.made += chunk.length;
  }
}

/** One-shot (`crypto.hash`): half the time of a Hash object for a small answer. */
function sha1Base64(bytes: Buffer): string {
  return hash('sha1', bytes, 'base64');
}
