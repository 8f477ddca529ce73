import { JsonText } from '../common/http/json-text.js';
import type { CartLine } from '../engine/index.js';

/**
 * An evaluated line's JSON (bytes from its worker, `{…}`) with a few more members
 * appended, without parsing it: `{…line…,"id":5,…}`. The members must not be the line's
 * own (id, cart_id, valid, errors, warnings… are not). `problems`, when given, is the
 * problems' text as the worker wrote it (`"errors":[…],"warnings":[…]`, evaluated-line.ts),
 * put in last as it is: a line of thousands of problems is not parsed or serialized here.
 */
export function lineWith(
  line: Uint8Array,
  members: Record<string, unknown>,
  problems?: Uint8Array,
): JsonText {
  const extra = JSON.stringify(members).slice(1, -1);
  // In pieces: neither the line's bytes (a 1,000-question line is ~0.8 MB) nor the
  // problems' are copied.
  const head = Buffer.from(line.buffer, line.byteOffset, line.byteLength - 1);
  if (problems === undefined)
    return new JsonText([head, Buffer.from(extra === '' ? '}' : `,${extra}}`)]);
  return new JsonText([
    head,
    Buffer.from(extra === '' ? ',' : `,${extra},`),
    Buffer.from(problems.buffer, problems.byteOffset, problems.byteLength),
    Buffer.from('}'),
  ]);
}

/** An evaluated line's bytes as the engine's line (recheck and impact compare members). */
export function parsedLine(line: Uint8Array): CartLine {
  return JSON.parse(
    Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8'),
  ) as CartLine;
}
