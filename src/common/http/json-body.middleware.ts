import express, { type Request, type RequestHandler } from 'express';
import { type JsonBodyFacts, recordBodyFacts, scanJson } from './json-body-facts.js';

const PARSE_ERROR = Symbol('body-parse-error');
const FACTS = Symbol('body-facts');
type WithParseError = Request & { [PARSE_ERROR]?: string; [FACTS]?: JsonBodyFacts };

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
 * express's JSON parser (body-parser: size limit, Content-Encoding, UTF charsets only,
 * strict: an object or an array at the top, an empty body is `{}`), then the depth check.
 * A UTF-8 body's bytes are scanned once before the parse (json-body-facts.ts): its depth
 * comes from there, and its facts go with the parsed value to the validation pipe.
 * Too large (413) and an unsupported charset or encoding (415) are answered as body-parser
 * words them. A body that is not valid JSON (malformed, or nested deeper than
 * MAX_JSON_DEPTH) is not answered here: the error is kept on the request so the route can
 * answer it with its own status (a few seed endpoints answer 401 for a bad body, not 400).
 */
export function jsonBodyParser(limitBytes: number): RequestHandler {
  const parse = express.json({
    type: JSON_TYPES,
    limit: limitBytes,
    strict: true,
    // Called with the (inflated) bytes before they are decoded and parsed.
    verify: (req, _res, raw, encoding) => {
      if (encoding !== 'utf-8' && encoding !== 'utf8') return;
      (req as WithParseError)[FACTS] = { ...scanJson(raw), raw };
    },
  });
  return (req, res, next) => {
    if (readsOwnBody(req)) return next();
    parse(req, res, (error?: unknown) => {
      const status = (error as { status?: number } | undefined)?.status;
      if (status === 400) return deferToRoute(req, 'The body is not valid JSON', next);
      if (error) return next(error as Error);
      const facts = (req as WithParseError)[FACTS];
      (req as WithParseError)[FACTS] = undefined;
      if (facts ? facts.depth > MAX_JSON_DEPTH : depthExceeds(req.body, MAX_JSON_DEPTH))
        return deferToRoute(req, `The body is nested deeper than ${MAX_JSON_DEPTH} levels`, next);
      if (facts) recordBodyFacts(req.body, facts);
      next();
    });
  };
}

function deferToRoute(req: Request, message: string, next: () => void): void {
  (req as WithParseError)[PARSE_ERROR] = message;
  req.body = undefined;
  next();
}

/**
 * Recursive, but never deeper than `maxDepth` + 1 frames (it stops there), so the check
 * itself cannot overflow the stack. A body of 5,000 answers is walked in about 0.8 ms.
 */
export function depthExceeds(value: unknown, maxDepth: number, depth = 1): boolean {
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
