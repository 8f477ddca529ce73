/**
 * A member whose JSON is already written (UTF-8 bytes of a JSON value, e.g. a stored model
 * definition, a line from its worker): the envelope (jsonChunks) copies the bytes into the
 * answer as they are, so megabytes of it are neither parsed nor serialized again. Only trusted text
 * belongs here (the service wrote it with JSON.stringify). `toJSON` keeps any other
 * serializer correct, at the cost of a parse.
 */
export class JsonText {
  constructor(readonly bytes: Buffer) {}

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}
