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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * One pass over UTF-8 JSON bytes: nesting depth (brackets outside strings; exact for valid
 * JSON, and invalid JSON is refused by the parse that follows) and whether every string is
 * verbatim and safe. UTF-8 of U+0080–U+009F starts C2 80–9F, of a surrogate ED A0–BF
 * (invalid UTF-8, decoded as U+FFFD, but counted as not verbatim all the same).
 */
export function scanJson(bytes: Uint8Array): { depth: number; verbatim: boolean } {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let verbatim = true;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === QUOTE) inString = false;
      else if (byte === BACKSLASH) {
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
    } else if (byte === QUOTE) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return { depth: deepest, verbatim };
}
