import { createHash } from 'node:crypto';
import type { SliceClock } from '../../engine/index.js';

/** Text collected before it is turned into bytes. */
const FLUSH_CHARS = 16 * 1024;

/** An answer's bytes, and the SHA-1 (base64) of large ones when it was asked for. */
export interface SerializedJson {
  bytes: Buffer;
  sha1?: string;
}

/** UTF-8 bytes written in pieces (serializeInSlices). */
export class ByteWriter {
  private readonly chunks: Buffer[] = [];
  private text = '';

  write(text: string): void {
    this.text += text;
    if (this.text.length >= FLUSH_CHARS) this.flush();
  }

  /** Bytes that are JSON already (JsonText). */
  writeBytes(bytes: Buffer): void {
    this.flush();
    this.chunks.push(bytes);
  }

  /**
   * The bytes as one Buffer. Those of a large answer (more than one piece: a page of 50
   * cart lines is 40 MB) are copied piece by piece, and hashed if `hash`, pausing when
   * the clock says so: one copy or hash of it all held the event loop for 40–70 ms.
   */
  async finish(clock: SliceClock | undefined, hash: boolean): Promise<SerializedJson> {
    this.flush();
    const { chunks } = this;
    if (chunks.length <= 1) return { bytes: chunks[0] ?? Buffer.alloc(0) };
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    const bytes = Buffer.allocUnsafe(length);
    const sha1 = hash ? createHash('sha1') : undefined;
    let at = 0;
    for (const chunk of chunks) {
      at += chunk.copy(bytes, at);
      sha1?.update(chunk);
      if (clock?.due()) await clock.pause();
    }
    return { bytes, sha1: sha1?.digest('base64') };
  }

  private flush(): void {
    if (this.text.length === 0) return;
    this.chunks.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }
}
