import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
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
  app.useStaticAssets(dir, {
    prefix: PAGES_PREFIX,
    index: 'index.html',
    dotfiles: 'ignore',
    setHeaders: (res, path) => {
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
