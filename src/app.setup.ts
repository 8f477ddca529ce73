import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { constants as zlibConstants } from 'node:zlib';
import compression from 'compression';
import helmet from 'helmet';
import { Admission } from './admission/admission.js';
import { AdmissionKeys, RecognisedApiTokens } from './admission/admission-keys.js';
import { corsDelegate, noStoreForApi } from './common/http/cross-origin.js';
import { type EtagFunction, readOnlyEtag } from './common/http/read-etag.js';
import { acceptJsonBytes } from './common/http/json-bytes.js';
import { jsonBodyParser } from './common/http/json-body.middleware.js';
import { AppConfig } from './config/app-config.js';
import { closeConnectionsWhileDraining } from './shutdown/graceful-shutdown.js';
import { ShutdownState } from './shutdown/shutdown-state.js';
import { AppLogger } from './logging/app-logger.js';
import { MetricsService } from './metrics/metrics.service.js';
import { requestContext } from './logging/request-context.js';
import { requestLogging } from './logging/request-logging.js';
import type { TrustProxy } from './rate-limit/client-key.js';
import { setupSwagger } from './swagger.js';
import { installServerSpans } from './tracing/server-spans.js';
import { serveRootRoutes } from './web/root-routes.js';
import { serveStaticPages } from './web/static-pages.js';

/**
 * Answers under 1 KB go as they are (the headers would outweigh the saving). Level 1:
 * every answer is compressed afresh, and at 1,000 questions gzip 6 takes 13 ms for 32 kB
 * where gzip 1 takes 4 ms for 40 kB and brotli 1 takes 1.5 ms for 27 kB. The page files
 * are sent precompressed at the best levels instead (src/web/static-pages.ts, ADR 0202).
 */
const COMPRESSION_OPTIONS: compression.CompressionOptions = {
  threshold: 1024,
  level: 1,
  brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
};

/**
 * Everything about the HTTP app that is not a module: admission (in front of express),
 * request logging and ids, response compression, CORS, body parsing with limits, security
 * and cache headers, Swagger, the browser pages. Used by main.ts and by the e2e tests
 * alike. Shutdown is main.ts's (shutdown/graceful-shutdown.ts).
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  // X-Forwarded-For counts only from the configured proxies (TRUSTED_PROXIES), else not at all.
  app.set('trust proxy', config.trustedProxies.length > 0 ? config.trustedProxies : false);
  app.disable('x-powered-by');
  const expressApp = app.getHttpAdapter().getInstance();
  // Refuses excess work before express sees it (docs/adr/0053-admission-before-the-pipeline.md).
  const metrics = app.get(MetricsService);
  const trust = expressApp.get('trust proxy fn') as TrustProxy;
  const keys = new AdmissionKeys(config.jwt, app.get(RecognisedApiTokens), trust);
  const server = app.getHttpServer() as Server;
  new Admission(config.admission, keys, config.admission, (reason) =>
    metrics.countAdmissionRefusal(reason),
  ).install(server);
  // Tracing on: each request's server span, refusals included, is decided first (ADR 0207).
  if (config.tracingEnabled) installServerSpans(server);
  // The envelope interceptor serializes answers itself (common/envelope/json-chunks.ts).
  acceptJsonBytes(expressApp);
  // ETags on GET/HEAD answers only (a POST answer is never revalidated; hashing it costs):
  // express's own weak ETag function (its default), wrapped. Nest's app.get is its
  // container's, so the setting is read from the express instance.
  expressApp.set('etag', 'weak');
  const weakEtag = expressApp.get('etag fn') as EtagFunction;
  expressApp.set(
    'etag',
    readOnlyEtag(weakEtag, () => requestContext.getStore()?.request.method),
  );
  app.use(requestLogging(app.get(AppLogger).pino));
  app.use(closeConnectionsWhileDraining(app.get(ShutdownState)));
  // gzip or brotli as Accept-Encoding asks (brotli preferred), from 1 KB on, for
  // compressible types only (JSON, YAML, SVG: not PNG/JPEG/zip); Vary: Accept-Encoding.
  // Off the event loop (zlib's thread pool), at the fastest levels (docs/adr/0036-compression.md).
  if (config.httpCompression) app.use(compression(COMPRESSION_OPTIONS));
  if (config.corsOrigins.length > 0) app.enableCors(corsDelegate(config.corsOrigins));
  // Swagger UI needs inline scripts and styles; the API itself serves only JSON. With
  // CORS on, a web shop may also show model images (no-cors loads) from this origin.
  const resourcePolicy = config.corsOrigins.length > 0 ? 'cross-origin' : 'same-origin';
  app.use(
    helmet({
      contentSecurityPolicy: false,
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: resourcePolicy },
    }),
  );
  app.use(noStoreForApi);
  app.use(jsonBodyParser(config.jsonBodyLimitBytes));
  if (config.swaggerEnabled) setupSwagger(app);
  // The browser pages at /app (web/, bundled into dist/app by npm run build).
  serveStaticPages(app);
  serveRootRoutes(app);
  return app;
}
