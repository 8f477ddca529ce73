import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Application, Request, Response } from 'express';
import { PAGES_PREFIX } from './static-pages.js';

/**
 * A small icon for the browser's own `GET /favicon.ico` (an SVG: every current browser
 * takes it whatever the URL's extension), so that a visit to the service logs no 404.
 */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">' +
  '<rect width="16" height="16" rx="3" fill="#1f4e79"/>' +
  '<path d="M4 4h8v2H6v2h5v2H6v2H4z" fill="#fff"/></svg>';

/**
 * `GET /` sends a person who opens the service's address to the pages, and
 * `GET /favicon.ico` answers the browser's icon request. Plain express routes registered
 * before Nest's router (like the pages themselves): public, no data, no envelope.
 */
export function serveRootRoutes(app: NestExpressApplication): void {
  const express = app.getHttpAdapter().getInstance() as Application;
  express.get('/', (_req: Request, res: Response) => res.redirect(302, `${PAGES_PREFIX}/`));
  express.get('/favicon.ico', (_req: Request, res: Response) => {
    res.setHeader('Content-Type', 'image/svg+xml');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.send(FAVICON_SVG);
  });
}
