import { parse as parseContentType } from 'content-type';
import express, { type Request, type RequestHandler } from 'express';
import { runAsSlicedStep, type Slicing } from '../event-loop/slice-clock.js';

const PARSE_ERROR = Symbol('body-parse-error');
type WithParseError = Request & { [PARSE_ERROR]?: string };

/**
 * Model uploads read their own body (JSON, YAML or zip, up to the model upload limit,
 * not the JSON limit), so the JSON parser leaves these routes' streams untouched.
 */
const RAW_BODY_ROUTES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'POST', path: /^\/v1\/suppliers\/[^/]+\/models\/?$/i },
  { method: 'PUT', path: /^\/v1\/models\/[^/]+\/?$/i },
];

/** Deeper JSON is refused: validation walks bodies recursively and must not overflow. */
export const MAX_JSON_DEPTH = 64;

const readsOwnBody = (req: Request): boolean =>
  RAW_BODY_ROUTES.some((route) => route.method === req.method && route.path.test(req.path));

/** The media types read as JSON. */
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Bodies from this many characters on are parsed (and later walked by the validation pipe)
 * as sliced work: a 5,000-answer preview body (~130 kB) takes 3–5 ms to parse and check,
 * and four of them arriving together were one block of the event loop.
 */
const LARGE_BODY_CHARS = 16 * 1024;

/** Bodies parsed as large ones, for the validation pipe (isLargeJsonBody). */
const largeBodies = new WeakSet<object>();

/**
 * JSON body parsing with the size limit (413 at once). A body that is not valid JSON
 * (malformed, badly encoded, or nested deeper than MAX_JSON_DEPTH) is not answered
 * here: the error is kept on the request so the route can answer it with its own
 * status (a few seed endpoints answer 401 for a bad body, not 400).
 *
 * body-parser reads the text (limit, Content-Encoding, charset decoding); the parse is
 * ours so that a large body waits for the event loop's shared slice (`slicing`) instead
 * of being parsed in the I/O callback that finished reading it. It keeps body-parser's
 * JSON rules: UTF charsets only (415), an empty body is `{}`, only an object or an array
 * at the top.
 */
export function jsonBodyParser(limitBytes: number, slicing: Slicing): RequestHandler {
  const readText = express.text({ type: JSON_TYPES, limit: limitBytes, defaultCharset: 'utf-8' });
  return (req, res, next) => {
    if (readsOwnBody(req)) return next();
    const charsetError = unsupportedCharset(req);
    if (charsetError) return next(charsetError);
    readText(req, res, (error?: unknown) => {
      const status = (error as { status?: number } | undefined)?.status;
      // 413 (too large) and 415 (unsupported charset/encoding) stand as they are.
      if (status === 400) return deferToRoute(req, 'The body is not valid JSON', next);
      if (error) return next(error as Error);
      const text: unknown = req.body;
      // No body, or not a JSON media type: nothing was read.
      if (typeof text !== 'string') return next();
      const settle = (parsed: ParsedBody): void => {
        if ('problem' in parsed) return deferToRoute(req, parsed.problem, next);
        req.body = parsed.value;
        next();
      };
      if (text.length < LARGE_BODY_CHARS) return settle(parseJsonBody(text));
      runAsSlicedStep(() => parseJsonBody(text, true), slicing).then(settle, next);
    });
  };
}

export type ParsedBody = { value: unknown } | { problem: string };

/**
 * A body's text as body-parser's JSON parser reads it (empty: `{}`; only an object or an
 * array at the top), then the depth check. `large`: mark it for the validation pipe.
 */
export function parseJsonBody(text: string, large = false): ParsedBody {
  // As body-parser: an empty body is an empty object (a common client-side mistake).
  if (text.length === 0) return { value: {} };
  const first = firstNonWhitespace(text);
  if (first !== '{' && first !== '[') return { problem: 'The body is not valid JSON' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'The body is not valid JSON' };
  }
  if (depthExceeds(value, MAX_JSON_DEPTH))
    return { problem: `The body is nested deeper than ${MAX_JSON_DEPTH} levels` };
  if (large && typeof value === 'object' && value !== null) largeBodies.add(value);
  return { value };
}

/** The first character that is not JSON whitespace (space, tab, line feed, return). */
function firstNonWhitespace(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return text[i];
  }
  return undefined;
}

/** A body parsed as a large one: the validation pipe walks it as sliced work too. */
export function isLargeJsonBody(value: unknown): boolean {
  return typeof value === 'object' && value !== null && largeBodies.has(value);
}

/**
 * body-parser's JSON rule, which its text reader does not apply: a JSON body's charset,
 * when one is named, is a UTF one (415, as body-parser words it). An empty `charset=`
 * names none (body-parser reads the default, UTF-8).
 */
function unsupportedCharset(req: Request): Error | null {
  const header = req.headers['content-type'];
  if (!header || !req.is(JSON_TYPES)) return null;
  const charset = parseContentType(header).parameters.charset?.toLowerCase();
  if (!charset || charset.startsWith('utf-')) return null;
  return Object.assign(new Error(`unsupported charset "${charset.toUpperCase()}"`), {
    status: 415,
    statusCode: 415,
    expose: true,
    charset,
    type: 'charset.unsupported',
  });
}

function deferToRoute(req: Request, message: string, next: () => void): void {
  (req as WithParseError)[PARSE_ERROR] = message;
  req.body = undefined;
  next();
}

/**
 * Recursive, but never deeper than `maxDepth` + 1 frames (it stops there), so the check
 * itself cannot overflow the stack. A body of 5,000 answers is walked in about 0.8 ms
 * (Object.values, or a stack of its own, made it 2 ms).
 */
function depthExceeds(value: unknown, maxDepth: number, depth = 1): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth > maxDepth) return true;
  if (Array.isArray(value)) return value.some((child) => depthExceeds(child, maxDepth, depth + 1));
  const members = value as Record<string, unknown>;
  for (const key of Object.keys(members)) {
    if (depthExceeds(members[key], maxDepth, depth + 1)) return true;
  }
  return false;
}

export function bodyParseError(req: Request): string | undefined {
  return (req as WithParseError)[PARSE_ERROR];
}
