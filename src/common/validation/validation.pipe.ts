import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { RequestValidationError } from '../errors/api-error.js';
import { unsafeTextProblems } from '../../engine/index.js';
import { validationProblems } from './validation-problems.js';

/**
 * Validates every DTO; unknown fields are refused, every problem is reported.
 * Two additions to Nest's pipe:
 * - path parameters are left as they arrived: `transform: true` would turn `0x1` or `1.0`
 *   into 1 before `@IdParam` could refuse them (ids have one spelling, see parseId);
 * - bodies and query strings are checked for text no database may store alike (NUL,
 *   control characters, unpaired surrogates), once for every route rather than per DTO.
 */
class AppValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') return value;
    if (metadata.type === 'body' || metadata.type === 'query') {
      const problems = unsafeTextProblems(value);
      if (problems.length > 0) throw new RequestValidationError(problems, 'Invalid text');
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new AppValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new RequestValidationError(validationProblems(errors)),
  });
}
