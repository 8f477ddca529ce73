import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { jsonBodyParser } from './common/http/json-body.middleware.js';
import { AppConfig } from './config/app-config.js';
import { setupSwagger } from './swagger.js';

/**
 * Everything about the HTTP app that is not a module: body parsing with limits,
 * security headers, Swagger. Used by main.ts and by the e2e tests alike.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  // X-Forwarded-For counts only from the configured proxies (TRUSTED_PROXIES), else not at all.
  app.set('trust proxy', config.trustedProxies.length > 0 ? config.trustedProxies : false);
  app.disable('x-powered-by');
  // Swagger UI needs inline scripts and styles; the API itself serves only JSON.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  app.use(jsonBodyParser(config.jsonBodyLimitBytes));
  app.enableShutdownHooks();
  if (config.swaggerEnabled) setupSwagger(app);
  return app;
}
