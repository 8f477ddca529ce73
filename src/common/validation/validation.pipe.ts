import { ValidationPipe } from '@nestjs/common';
import { RequestValidationError } from '../errors/api-error.js';
import { validationProblems } from './validation-problems.js';

/** Validates every DTO; unknown fields are refused, every problem is reported. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new RequestValidationError(validationProblems(errors)),
  });
}
