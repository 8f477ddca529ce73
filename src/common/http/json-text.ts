/**
 * A member whose JSON is already written (UTF-8 bytes of a JSON value, e.g. a stored model
 * definition, a line from its worker, possibly in pieces): the envelope (jsonChunks) puts
 * the pieces into the answer as they are, so megabytes of it are neither parsed, nor
 * serialized, nor copied again. Only trusted text belongs here (the service wrote it with
 * JSON.stringify). `toJSON` keeps any other serializer correct, at the cost of a parse.
 */
export class JsonText {
  readonly chunks: readonly Buffer[];

  /**
   * `spent`: the ArrayBuffers under the chunks that only this text reads (a preview's line
   * from its worker), freed once the answer carrying it is sent (JsonBytes, spent-buffers.ts).
   */
  constructor(
    bytes: Buffer | readonly Buffer[],
    readonly spent: readonly ArrayBuffer[] = [],
  ) {
    this.chunks = Buffer.isBuffer(bytes) ? [bytes] : bytes;
  }

  /** The same text, its chunks' ArrayBuffers (the plain ones) freed once it is sent. */
  spending(buffers: readonly ArrayBufferLike[]): JsonText {
    const owned = buffers.filter((buffer) => buffer instanceof ArrayBuffer);
    return new JsonText(this.chunks, [...this.spent, ...owned]);
  }

  /** The text as one buffer (copied when it is in pieces). */
  get bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}
