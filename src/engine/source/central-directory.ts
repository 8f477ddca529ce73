/**
 * A minimal reader of a zip's central directory, used to vet an archive before JSZip
 * touches it: the entry count, names, declared sizes and attributes come from here,
 * and nothing is inflated.
 */

export interface CentralEntry {
  /** The name as stored (UTF-8), null when its bytes are not valid UTF-8. */
  name: string | null;
  /** A Unicode Path extra field (0x7075) that names the entry differently. */
  conflictingUnicodeName: boolean;
  dir: boolean;
  encrypted: boolean;
  /** Unix file type bits (S_IFMT) when the entry was made on a Unix-like system, else null. */
  unixType: number | null;
  /** Declared uncompressed size: a hint for an early refusal, never trusted. */
  declaredSize: number;
}

export type CentralDirectory =
  | { kind: 'ok'; entries: CentralEntry[] }
  | { kind: 'invalid'; reason: string }
  | { kind: 'too_many'; count: number };

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const U16 = 0xffff;
const U32 = 0xffffffff;
const MADE_BY_UNIX = 3;
const MADE_BY_OSX = 19;
export const S_IFMT = 0o170000;
export const S_IFDIR = 0o040000;
export const S_IFLNK = 0o120000;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readCentralDirectory(zip: Buffer, maxEntries: number): CentralDirectory {
  const eocd = findEocd(zip);
  if (eocd < 0) return { kind: 'invalid', reason: 'no end of central directory record' };
  let count = zip.readUInt16LE(eocd + 10);
  let size = zip.readUInt32LE(eocd + 12);
  let end = eocd;
  if (count === U16 || size === U32 || zip.readUInt32LE(eocd + 16) === U32) {
    const zip64 = findZip64Eocd(zip, eocd);
    if (zip64 < 0)
      return { kind: 'invalid', reason: 'missing zip64 end of central directory record' };
    count = Number(zip.readBigUInt64LE(zip64 + 32));
    size = Number(zip.readBigUInt64LE(zip64 + 40));
    end = zip64;
  }
  // Refuse on the declared count first: walking a huge directory is itself work.
  if (count > maxEntries) return { kind: 'too_many', count };
  // Measured back from the end record, so that data prepended to the archive is tolerated.
  let offset = end - size;
  if (offset < 0) return { kind: 'invalid', reason: 'central directory out of bounds' };
  const entries: CentralEntry[] = [];
  while (offset + 46 <= end && zip.readUInt32LE(offset) === CENTRAL_HEADER) {
    if (entries.length >= maxEntries) return { kind: 'too_many', count: entries.length + 1 };
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const next = offset + 46 + nameLength + extraLength + commentLength;
    if (next > end) return { kind: 'invalid', reason: 'central directory entry out of bounds' };
    const nameBytes = zip.subarray(offset + 46, offset + 46 + nameLength);
    const extra = zip.subarray(offset + 46 + nameLength, offset + 46 + nameLength + extraLength);
    entries.push(readEntry(zip, offset, nameBytes, extra));
    offset = next;
  }
  if (entries.length !== count) {
    return {
      kind: 'invalid',
      reason: `central directory holds ${entries.length} entries, ${count} declared`,
    };
  }
  return { kind: 'ok', entries };
}

function readEntry(zip: Buffer, offset: number, nameBytes: Buffer, extra: Buffer): CentralEntry {
  const madeBy = zip.readUInt16LE(offset + 4) >> 8;
  const flags = zip.readUInt16LE(offset + 8);
  const external = zip.readUInt32LE(offset + 38);
  let name: string | null;
  try {
    name = utf8.decode(nameBytes);
  } catch {
    name = null;
  }
  const unixType =
    madeBy === MADE_BY_UNIX || madeBy === MADE_BY_OSX ? (external >>> 16) & S_IFMT : null;
  let declaredSize = zip.readUInt32LE(offset + 24);
  let conflictingUnicodeName = false;
  for (let i = 0; i + 4 <= extra.length;) {
    const id = extra.readUInt16LE(i);
    const length = extra.readUInt16LE(i + 2);
    const data = extra.subarray(i + 4, i + 4 + length);
    if (id === 0x0001 && declaredSize === U32 && data.length >= 8)
      declaredSize = Number(data.readBigUInt64LE(0));
    // JSZip would use this name instead of the stored one, so both must agree.
    if (id === 0x7075 && (data.length < 5 || !data.subarray(5).equals(nameBytes)))
      conflictingUnicodeName = true;
    i += 4 + length;
  }
  const dir = (name?.endsWith('/') ?? false) || (external & 0x10) !== 0 || unixType === S_IFDIR;
  return {
    name,
    conflictingUnicodeName,
    dir,
    encrypted: (flags & 1) !== 0,
    unixType,
    declaredSize,
  };
}

/** The end of central directory record, searched back over at most a maximal comment. */
function findEocd(zip: Buffer): number {
  const last = zip.length - 22;
  for (let i = last; i >= 0 && i >= last - U16; i--) {
    if (zip.readUInt32LE(i) === EOCD) return i;
  }
  return -1;
}

function findZip64Eocd(zip: Buffer, eocd: number): number {
  const locator = eocd - 20;
  if (locator < 0 || zip.readUInt32LE(locator) !== ZIP64_LOCATOR) return -1;
  const recorded = Number(zip.readBigUInt64LE(locator + 8));
  for (const at of [recorded, locator - 56]) {
    if (at >= 0 && at + 56 <= locator && zip.readUInt32LE(at) === ZIP64_EOCD) return at;
  }
  return -1;
}
