import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IDEMPOTENT_KEY, type BodyReader, type IdempotentOptions } from './idempotency-options.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

export type { BodyReader };

/**
 * The route accepts an `Idempotency-Key` header (docs/api.md, "Retrying safely"): a retry with
 * the same key, caller and body within 24 h replays the first answer.
 */
export const Idempotent = (readBody?: BodyReader) =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_KEY, { readBody } satisfies IdempotentOptions),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        '1–255 printable characters. Within 24 h a retry with the same key and body replays ' +
        'the first answer (header `Idempotent-Replayed: true`); another body is 422; a retry ' +
        'while the first request runs is 409.',
    }),
  );
