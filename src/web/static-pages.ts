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

/**
 * The pages are static files served by express before Nest's router, so the global
 * CredentialsGuard (which guards controller routes only) never sees them: they are
 * public, and hold no data; every call they make goes to the API with its own
 * credential. Names are not content-hashed, so browsers revalidate (ETag) each load.
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
    setHeaders: (res) => {
      res.setHeader('Cache-Control', 'no-cache');
      // Metrics and logs label every page file alike, not as an unmatched route.
      labelRoute(res, `${PAGES_PREFIX}/*`);
    },
  });
}
