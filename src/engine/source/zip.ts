import { Readable } from 'node:stream';

import JSZip from 'jszip';

import type { EngineLimits } from '../limits.js';
import { ProblemList } from '../problems.js';
import { readCentralDirectory, S_IFDIR, S_IFLNK } from './central-directory.js';
import { assetContentTypeOf, extensionOf } from './content-type.js';
import { unsafePathReason } from './paths.js';
import { invalid, limitExceeded, ok, type SourceResult } from './result.js';

/** File names the root model may have; exactly one must be at the root of a zip. */
export const ROOT_MODEL_NAMES = ['model.yaml', 'model.yml', 'model.json'] as const;

const S_IFREG = 0o100000;
const ARCHIVE_EXTENSIONS = new Set(
  'zip jar war ear apk gz tgz tar 7z rar bz2 xz zst cab'.split(' '),
);
const ARCHIVE_MAGIC: readonly number[][] = [
  [0x50, 0x4b, 0x03, 0x04], // zip
  [0x50, 0x4b, 0x05, 0x06], // empty zip
  [0x50, 0x4b, 0x07, 0x08], // spanned zip
  [0x1f, 0x8b], // gzip
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], // 7z
  [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], // rar
  [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], // xz
  [0x28, 0xb5, 0x2f, 0xfd], // zstd
];

/**
 * The files of a zip upload by name, directories left out, after every check of
 * docs/model-format.md "Limits". The entry count and every name are vetted from the central
 * directory before anything is inflated; the uncompressed total is counted while inflating.
 */
export async function readZip(
  bytes: Buffer,
  limits: EngineLimits,
): Promise<SourceResult<Map<string, Buffer>>> {
  const directory = readCentralDirectory(bytes, limits.zipEntries);
  if (directory.kind === 'too_many') {
    return limitExceeded(`the zip has more than zipEntries (${limits.zipEntries}) entries`, true);
  }
  if (directory.kind === 'invalid') {
    return invalid([
      { code: 'invalid_zip', message: `not a readable zip archive: ${directory.reason}` },
    ]);
  }
  const sizeMessage = `the zip holds more than zipUncompressedBytes (${limits.zipUncompressedBytes}) bytes uncompressed`;
  // The declared sizes only allow an early refusal; the real sizes are counted below.
  const declared = directory.entries.reduce((sum, entry) => sum + entry.declaredSize, 0);
  if (declared > limits.zipUncompressedBytes) return limitExceeded(sizeMessage, true);
  const images = new ImageBudget(limits);
  for (const entry of directory.entries) {
    if (entry.name === null || entry.dir || assetContentTypeOf(entry.name) === null) continue;
    const over = images.declare(entry.name, entry.declaredSize);
    if (over !== null) return limitExceeded(over, true, entry.name);
  }
  images.reset();

  const problems = new ProblemList();
  const seen = new Set<string>();
  const fileNames: string[] = [];
  for (const entry of directory.entries) {
    const name = entry.name;
    if (name === null) {
      problems.add('zip_unsafe_path', 'a zip entry name is not valid UTF-8');
      continue;
    }
    const at = name.length > 0 ? name : undefined;
    const reason = entry.conflictingUnicodeName
      ? 'has a Unicode path field naming another file'
      : unsafePathReason(name);
    if (reason !== null) {
      problems.add('zip_unsafe_path', `zip entry "${name}" ${reason}`, at);
      continue;
    }
    if (entry.encrypted) problems.add('zip_encrypted', `zip entry "${name}" is encrypted`, at);
    if (entry.unixType === S_IFLNK) {
      problems.add('zip_symlink', `zip entry "${name}" is a symbolic link`, at);
    } else if (entry.unixType !== null && ![0, S_IFREG, S_IFDIR].includes(entry.unixType)) {
      problems.add('zip_special_file', `zip entry "${name}" is not a regular file or folder`, at);
    }
    // Case-insensitive: names differing only in case are one file on many systems.
    const key = name.replace(/\/$/, '').toLowerCase();
    if (seen.has(key))
      problems.add('zip_duplicate_entry', `zip entry "${name}" appears more than once`, at);
    seen.add(key);
    if (entry.dir) continue;
    const extension = extensionOf(name);
    if (extension !== null && ARCHIVE_EXTENSIONS.has(extension)) {
      problems.add(
        'zip_nested_archive',
        `zip entry "${name}" is an archive; nested archives are not accepted`,
        at,
      );
    }
    fileNames.push(name);
  }
  const roots = fileNames.filter((name) => (ROOT_MODEL_NAMES as readonly string[]).includes(name));
  if (roots.length !== 1) {
    const which = roots.length === 0 ? 'none' : roots.join(', ');
    problems.add(
      'zip_model_file',
      `the zip must hold exactly one of ${ROOT_MODEL_NAMES.join(', ')} at its root (found ${which})`,
    );
  }
  if (!problems.empty) return invalid(problems.items);

  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (error) {
    return invalid([
      { code: 'invalid_zip', message: `not a readable zip archive: ${messageOf(error)}` },
    ]);
  }
  const files = new Map<string, Buffer>();
  let total = 0;
  for (const name of fileNames) {
    const file = zip.file(name);
    if (file === null) {
      const message = `zip entry "${name}" cannot be read`;
      return invalid([{ code: 'invalid_zip', message, path: name }]);
    }
    const image = assetContentTypeOf(name) !== null;
    const totalLeft = limits.zipUncompressedBytes - total;
    const budget = image ? Math.min(totalLeft, images.left()) : totalLeft;
    const inflated = await inflate(file, budget);
    if (inflated.kind === 'too_large') {
      const over = image ? images.declare(name, budget + 1) : null;
      return limitExceeded(budget < totalLeft && over !== null ? over : sizeMessage, true, name);
    }
    if (inflated.kind === 'error') {
      problems.add('invalid_zip', `zip entry "${name}" cannot be read: ${inflated.message}`, name);
      continue;
    }
    if (image) images.declare(name, inflated.bytes.length);
    total += inflated.bytes.length;
    if (ARCHIVE_MAGIC.some((magic) => startsWith(inflated.bytes, magic)) || isTar(inflated.bytes)) {
      problems.add(
        'zip_nested_archive',
        `zip entry "${name}" is an archive; nested archives are not accepted`,
        name,
      );
    }
    files.set(name, inflated.bytes);
  }
  return problems.empty ? ok(files) : invalid(problems.items);
}

/**
 * The limits on images (docs/model-format.md "Limits"): `assetBytes` each and
 * `modelAssetBytes` together, uncompressed. Checked on the sizes the zip declares, before
 * anything is inflated, and again on the bytes that come out.
 */
class ImageBudget {
  private used = 0;

  constructor(private readonly limits: EngineLimits) {}

  /** Counts an image of `size` bytes; the message naming the limit it crosses, or null. */
  declare(name: string, size: number): string | null {
    const { assetBytes, modelAssetBytes } = this.limits;
    if (size > assetBytes)
      return `image "${name}" is over assetBytes (${assetBytes}) bytes uncompressed (${size} or more)`;
    this.used += size;
    if (this.used > modelAssetBytes)
      return `the zip's images are over modelAssetBytes (${modelAssetBytes}) bytes uncompressed together (${this.used} or more)`;
    return null;
  }

  /** Bytes the next image may inflate to before it crosses a limit. */
  left(): number {
    return Math.min(this.limits.assetBytes, this.limits.modelAssetBytes - this.used);
  }

  reset(): void {
    this.used = 0;
  }
}

type Inflated =
  { kind: 'ok'; bytes: Buffer } | { kind: 'too_large' } | { kind: 'error'; message: string };

/**
 * Streams one entry and stops once more than `budget` bytes came out, whatever its
 * header declared. At most one input block (16 KB compressed) is inflated past the budget.
 */
function inflate(file: JSZip.JSZipObject, budget: number): Promise<Inflated> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const stream = file.nodeStream('nodebuffer');
    const settle = (result: Inflated): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > budget) {
        chunks.length = 0;
        // destroy() drops what the current block still pushes; nothing is buffered
        if (stream instanceof Readable) stream.destroy();
        else stream.pause();
        settle({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', (error: unknown) => settle({ kind: 'error', message: messageOf(error) }));
    stream.on('end', () => settle({ kind: 'ok', bytes: Buffer.concat(chunks, size) }));
  });
}

function startsWith(bytes: Buffer, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);
}

function isTar(bytes: Buffer): boolean {
  return bytes.length >= 262 && bytes.toString('latin1', 257, 262) === 'ustar';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
