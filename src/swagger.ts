import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { SECURITY_SCHEMES } from './principal/auth.decorator.js';

/** Swagger UI at /docs and the OpenAPI document at /docs-json. */
export function setupSwagger(app: INestApplication): void {
  const builder = new DocumentBuilder()
    .setTitle('Product configuration service')
    .setDescription(
      'Configure, validate and price made-to-order products, and collect them in carts. ' +
        'Every answer is an envelope {code, message, data, links, errors}. ' +
        'Log in with POST /v1/login, then use "Authorize" with the access token.',
    )
    .setVersion('1.0');
  const descriptions: Record<string, string> = {
    [SECURITY_SCHEMES.jwt]: 'JWT access token from POST /v1/login',
    [SECURITY_SCHEMES.api]: 'API token (cfg_…) from POST /v1/tokens',
    [SECURITY_SCHEMES.intent]: 'Intent token from POST /v1/intents',
    [SECURITY_SCHEMES.refresh]: 'Refresh token (in the body of /v1/refresh and /v1/logout)',
  };
  for (const [name, description] of Object.entries(descriptions)) {
    builder.addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description },
      name,
    );
  }
  const document = SwaggerModule.createDocument(app, builder.build());
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    // Keeps the token entered under "Authorize" across page reloads.
    swaggerOptions: { persistAuthorization: true },
  });
}
