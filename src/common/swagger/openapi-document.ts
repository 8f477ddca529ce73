import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { finishDocument } from './finish-document.js';
import { TAGS } from './operations.js';

/** Swagger security scheme names, one per credential sent in the Authorization header. */
export const SECURITY_SCHEMES = {
  jwt: 'access-token',
  api: 'api-token',
  intent: 'intent-token',
} as const;

/**
 * The OpenAPI document of the app, as /docs-json serves it and `npm run openapi`
 * commits it to openapi.json. Depends on nothing but the routes and DTOs (no
 * configuration, no database), so the committed copy can be compared with it.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Product configuration service')
    .setDescription(
      'Configure, validate and price made-to-order products, and collect them in carts. ' +
        'Every answer is an envelope `{code, message, data, links, errors}`. ' +
        'Log in with POST /v1/login, then use "Authorize" with the access token.',
    )
    .setVersion('1.0')
    .setLicense('MIT', 'https://opensource.org/license/mit')
    .addServer('/', 'The server this document is served from')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Access token (JWT, 15 min) from POST /v1/login or POST /v1/refresh',
      },
      SECURITY_SCHEMES.jwt,
    )
    // addSecurity, not addBearerAuth: that one would call the token a JWT.
    .addSecurity(SECURITY_SCHEMES.api, {
      type: 'http',
      scheme: 'bearer',
      description:
        'API token from POST /v1/tokens: an opaque secret starting with `cfg_` (not a JWT), ' +
        'for integrations on /v1/suppliers/** and /v1/models/**',
    })
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'Intent token (JWT) from POST /v1/intents: a web shop acting for one company on ' +
          '/v1/carts/** and /v1/companies/**',
      },
      SECURITY_SCHEMES.intent,
    );
  for (const tag of TAGS) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build());
  return finishDocument(document);
}
