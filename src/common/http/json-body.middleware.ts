import express, { type Request, type RequestHandler } from 'express';

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

const readsOwnBody = (req: Request): boolean =>
  RAW_BODY_ROUTES.some((route) => route.method === req.method && route.path.test(req.path));

/**
 * JSON body parsing with the size limit (413 at once). A body that is not valid JSON
 * is not answered here: the error is kept on the request so the route can answer it
 * with its own status (a few seed endpoints answer 401 for a bad body, not 400).
 */
export function jsonBodyParser(limitBytes: number): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    type: ['application/json', 'application/*+json'],
  });
  return (req, res, next) => {
    if (readsOwnBody(req)) return next();
    parse(req, res, (error?: unknown) => {
      const type = (error as { type?: string } | undefined)?.type;
      if (type === 'entity.parse.failed') {
        (req as WithParseError)[PARSE_ERROR] = 'The body is not valid JSON';
        req.body = undefined;
        return next();
      }
      next(error as Error | undefined);
    });
  };
}

export function bodyParseError(req: Request): string | undefined {
  return (req as WithParseError)[PARSE_ERROR];
}
