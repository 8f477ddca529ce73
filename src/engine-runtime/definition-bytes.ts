import { deflateSync, inflate, inflateSync } from 'node:zlib';
import { promisify } from 'node:util';

/**
 * A version's merged definition is stored as deflated JSON text (docs/adr/
 * 0038-deflated-definitions.md): a 5,000-question model's 2.6 MB of JSON become about
 * 180 KB, so the synchronous SQLite write of an upload stays short. The compile worker
 * deflates and inflates; the event loop only inflates on the libuv thread pool.
 */
export function deflateDefinition(json: string): Uint8Array {
  return deflateSync(json);
}

/** In a worker: the JSON text back. */
export function inflateDefinitionSync(bytes: Uint8Array): string {
  return inflateSync(bytes).toString('utf8');
}

const inflateAsync = promisify(inflate);

/** On the event loop: the JSON text's UTF-8 bytes, inflated off the loop. */
export function inflateDefinition(bytes: Uint8Array): Promise<Buffer> {
  return inflateAsync(bytes);
}
