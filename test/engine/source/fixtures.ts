import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import JSZip from 'jszip';

import { resolveLimits, type EngineLimits } from '../../../src/engine/limits.js';
import { DOOR_DIR, DOOR_FILES } from '../../support/examples.js';

export { DOOR_DIR };

export const limits = (overrides: Partial<EngineLimits> = {}): EngineLimits =>
  resolveLimits(overrides);

export type ZipFiles = Record<string, string | Buffer>;

/** A zip of `files`; options go to JSZip.file (e.g. unixPermissions). */
export async function makeZip(
  files: ZipFiles,
  options: { platform?: 'DOS' | 'UNIX'; unixPermissions?: Record<string, number> } = {},
): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) {
    const unixPermissions = options.unixPermissions?.[name];
    zip.file(name, content, unixPermissions === undefined ? {} : { unixPermissions });
  }
  return zip.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    platform: options.platform ?? 'DOS',
  });
}

/** The door example (examples/door), read from disk, as zip entries. */
export async function doorFiles(): Promise<ZipFiles> {
  const entries = await Promise.all(
    DOOR_FILES.map(async (name) => [name, await readFile(join(DOOR_DIR, name))] as const),
  );
  return Object.fromEntries(entries);
}

/** Rewrites the uncompressed size an entry declares (central and local header): a lying archive. */
export function patchDeclaredSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let at = 0; at + 46 <= out.length; at++) {
    if (out.readUInt32LE(at) !== 0x02014b50) continue;
    const nameLength = out.readUInt16LE(at + 28);
    if (out.toString('utf8', at + 46, at + 46 + nameLength) !== name) continue;
    out.writeUInt32LE(size, at + 24);
    out.writeUInt32LE(size, out.readUInt32LE(at + 42) + 22);
    return out;
  }
  throw new Error(`no entry ${name}`);
}

export const yamlBytes = (text: string): Buffer => Buffer.from(text, 'utf8');
