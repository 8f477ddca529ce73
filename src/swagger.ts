import type { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { buildOpenApiDocument } from './common/swagger/openapi-document.js';

/**
 * Swagger UI at /docs and the OpenAPI document at /docs-json. The document is built on
 * the first visit, not at boot: building it takes 120-300 ms that every start (and every
 * pod restart) would pay although few instances are ever asked for it.
 */
export function setupSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    // Tokens entered under "Authorize" stay in the page only: API tokens never expire,
    // and localStorage is readable by any script on the origin (docs/adr/0028-openapi-conventions.md).
    swaggerOptions: { persistAuthorization: false },
  });
}
