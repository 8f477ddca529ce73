import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { labelRoute } from '../common/http/route-pattern.js';

/** Where the browser pages are served (docs/adr/0080-browser-pages-stack.md). */
export const PAGES_PREFIX = '/app';

/**
 * dist/app, bundled from web/ by scripts/build-web.mjs. This file runs as
 * dist/src/web/static-pages.js (npm start) or as src/web/static-pages.ts (tests), so
 * both places relative to it are looked at.
 */
export function pagesDirectory(): string | undefined {
  const candidates = ['../../app', '../../dist/app'].map((relative) =>
    fileURLToPath(new URL(relative, import.meta.url)),
  );
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

/** The element's content-hashed file (scripts/build-web.mjs): never changes under its name. */
const HASHED_ELEMENT = /\/product-configurator\.[0-9a-f]{10}\.js$/;
/** What a shop's page on another origin loads: the element, and embed.json naming its hashed file. */
const EMBEDDABLE = /\/(product-configurator(\.[0-9a-f]{10})?\.js|embed\.json)$/;

/**
 * The pages are static files served by express before Nest's router, so the global
 * CredentialsGuard (which guards controller routes only) never sees them: they are
 * public, and hold no data; every call they make goes to the API with its own
 * credential. Names are not content-hashed, so browsers revalidate (ETag) each load;
 * the element's hashed copy is cached for a year. What a shop embeds is
 * `Cross-Origin-Resource-Policy: cross-origin` whatever CORS_ORIGINS says (a script
 * holds no data; the API calls it makes are what CORS guards), and readable by any
 * origin (`Access-Control-Allow-Origin: *`, no credentials), so a shop may pin it with
 * Subresource Integrity (docs/adr/0167-embeddable-element-as-public-asset.md).
 */
export function serveStaticPages(app: NestExpressApplication): void {
  const dir = pagesDirectory();
  if (!dir) {
    new Logger('StaticPages').warn(
      `No pages at ${PAGES_PREFIX}: dist/app is missing (npm run build)`,
    );
    return;
  }
  servePrecompressed(app, dir);
  app.useStaticAssets(dir, {
    prefix: PAGES_PREFIX,
    index: 'index.html',
    dotfiles: 'ignore',
    setHeaders: (res, served) => {
      const path = served.replace(ENCODED, '');
      const hashed = HASHED_ELEMENT.test(path);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (EMBEDDABLE.test(path)) {
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        res.setHeader('Access-Control-Allow-Origin', '*');
      }
      // Metrics and logs label every page file alike, not as an unmatched route.
      labelRoute(res, `${PAGES_PREFIX}/*`);
    },
  });
}

/** The encodings files are precompressed in (scripts/build-web.mjs), preferred first. */
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
const ENCODED = /\.(br|gz)$/;

/**
 * Sends a page file's precompressed copy (brotli 11, gzip 9: written at build) when the
 * request accepts its encoding: the static handler then serves that file, with its own
 * length and ETag, under the original's type. The compression middleware leaves an answer
 * that has a Content-Encoding alone; files without a copy (under 1 KB) go as before.
 * Dynamic answers keep the fast levels (docs/adr/0202).
 */
function servePrecompressed(app: NestExpressApplication, dir: string): void {
  const copies = new Set(readdirSync(dir).filter((name) => ENCODED.test(name)));
  if (copies.size === 0) return;
  app.use(PAGES_PREFIX, (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = fileOf(req);
    for (const [encoding, suffix] of ENCODINGS) {
      if (file === null || !copies.has(file + suffix)) continue;
      res.vary('Accept-Encoding');
      if (req.acceptsEncodings(encoding) !== encoding) continue;
      res.setHeader('Content-Encoding', encoding);
      res.type(extname(file));
      const query = req.url.indexOf('?');
      req.url = `/${file}${suffix}${query === -1 ? '' : req.url.slice(query)}`;
      break;
    }
    next();
  });
}

/** The page file a request under the prefix names (index.html for `/app/`), or null. */
function fileOf(req: Request): string | null {
  if (!req.path.endsWith('/')) return req.path.slice(1);
  // `/app` (no slash) is redirected to `/app/` by the static handler: leave it.
  const [path] = req.originalUrl.split('?');
  return path.endsWith('/') ? `${req.path.slice(1)}index.html` : null;
}
