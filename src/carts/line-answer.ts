import { JsonText } from '../common/http/json-text.js';

/**
 * An evaluated line's JSON (bytes from its worker, `{…}`) with a few more members
 * appended, without parsing it: `{…line…,"id":5,…}`. The members must not be the line's
 * own (id, cart_id, valid, errors, warnings… are not).
 */
export function lineWith(line: Uint8Array, members: Record<string, unknown>): JsonText {
  const extra = JSON.stringify(members);
  const head = Buffer.from(line.buffer, line.byteOffset, line.byteLength - 1);
  return new JsonText(Buffer.concat([head, Buffer.from(`,${extra.slice(1)}`)]));
}
