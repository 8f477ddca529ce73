/**
 * What the JSON body parser learns from a body's raw UTF-8 bytes in one pass, before it
 * parses them, so that the checks after it need not walk the parsed value again: a
 * preview of 1,000 answers was walked three times on the main thread (depth, unsafe text,
 * the pass-through shape), about a fifth of its CPU there (docs/adr/0055).
 */
export interface JsonBodyFacts {
  /** The deepest nesting of objects and arrays (the top container is 1). */
  readonly depth: number;
  /**
   * No string (key or value) holds an escape (`\`) or a byte of a character that
   * `unsafeTextReason` refuses (C0 controls, DEL, C1 controls, surrogates): every string
   * of the parsed value is its bytes as written, and none is unsafe.
   */
  readonly verbatim: boolean;
  /** The raw bytes (whether a key is written in them at all). */
  readonly raw: Buffer;
  /**
   * Where the top-level object's large container members are written (`memberOf` finds one
   * by key): five numbers each, the key's bytes (without quotes), the value's bytes and the
   * value's width as written. Ranges only, no text, so a body of many members costs the
   * scan no more than before. Empty unless the body is verbatim (a key's bytes are then
   * its text) and its top is an object.
   */
  readonly members: readonly number[];
}

/** Where a member's value is written in the body, and a bound on its width. */
export interface MemberText {
  /** The value's first byte (its opening bracket) and the byte after its last. */
  readonly start: number;
  readonly end: number;
  /**
   * Its members or items as written (commas directly inside it, plus one): exact but for
   * a repeated key, which JSON.parse keeps once, so never fewer than the parsed value has.
   */
  readonly widthAtMost: number;
}

/**
 * Members are noted from this size: a smaller one is cheap to stringify or count again, and
 * a body of many small members (a 1 MB body can hold 88,000) is noted nothing.
 */
export const NOTED_MEMBER_BYTES = 1024;

/** The member `key` of the body, by its bytes; the last of a repeated key, as JSON.parse. */
export function memberOf(body: JsonBodyFacts, key: string): MemberText | undefined {
  const { members, raw } = body;
  if (members.length === 0) return undefined;
  const keyBytes = Buffer.from(key, 'utf8');
  for (let at = members.length - 5; at >= 0; at -= 5) {
    const [keyStart, keyEnd, start, end, widthAtMost] = members.slice(at, at + 5);
    if (keyEnd - keyStart === keyBytes.length && keyBytes.compare(raw, keyStart, keyEnd) === 0)
      return { start, end, widthAtMost };
  }
  return undefined;
}

/** Parsed bodies → their facts, for the validation pipe. Only the parser adds to it. */
const factsOfBodies = new WeakMap<object, JsonBodyFacts>();

export function recordBodyFacts(body: unknown, facts: JsonBodyFacts): void {
  if (body !== null && typeof body === 'object') factsOfBodies.set(body, facts);
}

/** The facts of a parsed request body, or undefined (not parsed from JSON here). */
export function bodyFacts(body: unknown): JsonBodyFacts | undefined {
  return body !== null && typeof body === 'object' ? factsOfBodies.get(body) : undefined;
}

/**
 * Parsed values → their text in the body they were parsed from. Only the validation pipe
 * adds to it, for pass-through members it hands on as parsed (pass-through.ts), which
 * nothing writes to afterwards: the text stays the value's.
 */
const textOfValues = new WeakMap<object, Buffer>();

/** `value` (`body`'s `member`, found by `memberOf`, as parsed) is written as its bytes. */
export function recordMemberText(value: object, body: JsonBodyFacts, member: MemberText): void {
  textOfValues.set(value, body.raw.subarray(member.start, member.end));
}

/**
 * A parsed pass-through value's JSON text as the client wrote it, or undefined (not from
 * a body, or not recorded): parsing it again gives an equal value, so it can go to a
 * worker without a JSON.stringify here (5,000 answers: ~1.7 ms of the main thread).
 */
export function jsonTextOf(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const text = textOfValues.get(value);
  // A member's text starts with its bracket: no byte-order mark to keep or drop.
  return text?.toString('utf8');
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** What `scanJson` learns: the facts but the bytes themselves. */
export type ScannedJson = Omit<JsonBodyFacts, 'raw'>;

/**
 * One pass over UTF-8 JSON bytes: nesting depth (brackets outside strings; exact for valid
 * JSON, and invalid JSON is refused by the parse that follows), whether every string is
 * verbatim and safe, and where the top-level object's container members are. UTF-8 of
 * U+0080–U+009F starts C2 80–9F, of a surrogate ED A0–BF (invalid UTF-8, decoded as
 * U+FFFD, but counted as not verbatim all the same).
 */
export function scanJson(bytes: Uint8Array, notedBytes = NOTED_MEMBER_BYTES): ScannedJson {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let verbatim = true;
  const members: number[] = [];
  const topIsObject = firstByte(bytes) === OPEN_OBJECT;
  // The last string that closed at depth 1 (in an object there, the key of what follows),
  // where the current depth-2 container opened, and the commas directly inside it.
  let keyStart = 0;
  let keyEnd = 0;
  let valueStart = 0;
  let commas = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === QUOTE) {
        inString = false;
        if (depth === 1) keyEnd = i;
      } else if (byte === BACKSLASH) {
        verbatim = false;
        i++;
      } else if (byte < 0x20 || byte === 0x7f) verbatim = false;
      else if (byte === 0xc2) {
        const next = bytes[i + 1];
        if (next >= 0x80 && next <= 0x9f) verbatim = false;
      } else if (byte === 0xed) {
        const next = bytes[i + 1];
        if (next >= 0xa0 && next <= 0xbf) verbatim = false;
      }
    } else if (byte === QUOTE) {
      inString = true;
      if (depth === 1) keyStart = i + 1;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (depth === 2) {
        valueStart = i;
        commas = 0;
      }
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth === 2 && topIsObject && i + 1 - valueStart >= notedBytes) {
        const width = isEmptyContainer(bytes, valueStart, i) ? 0 : commas + 1;
        members.push(keyStart, keyEnd, valueStart, i + 1, width);
      }
      depth--;
    } else if (byte === COMMA && depth === 2) commas++;
  }
  // A key with an escape is not its bytes: no member is named from them then.
  return { depth: deepest, verbatim, members: verbatim ? members : [] };
}

/** The first byte that is not JSON whitespace, or -1. */
function firstByte(bytes: Uint8Array): number {
  for (const byte of bytes) if (!isJsonSpace(byte)) return byte;
  return -1;
}

/** Only whitespace between a container's brackets at `open` and `close`. */
function isEmptyContainer(bytes: Uint8Array, open: number, close: number): boolean {
  for (let i = open + 1; i < close; i++) if (!isJsonSpace(bytes[i])) return false;
  return true;
}

const isJsonSpace = (byte: number) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
