import { HttpException, HttpStatus } from '@nestjs/common';
import type { Problem } from '../../engine/index.js';

export type { Problem };

/**
 * The one error type services throw: an HTTP status, a short message and the
 * problems that go into the envelope's `errors`.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly problems: Problem[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }

  static badRequest(message: string, problems: Problem[] = []): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, message, problems);
  }

  static unauthorized(message = 'Authentication required', problems: Problem[] = []): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, message, problems);
  }

  static forbidden(message = 'Forbidden', problems: Problem[] = []): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, message, problems);
  }

  static notFound(message = 'Not found', problems: Problem[] = []): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, message, problems);
  }

  static conflict(message: string, problems: Problem[] = []): ApiError {
    return new ApiError(HttpStatus.CONFLICT, message, problems);
  }
}

/**
 * Invalid input (body, query or params). Its status is decided per route: most answer
 * 400, a few seed endpoints answer 401 (see SeedContract).
 */
export class RequestValidationError extends ApiError {
  constructor(problems: Problem[], message = 'Bad request') {
    super(HttpStatus.BAD_REQUEST, message, problems);
  }

  withStatus(status: number): ApiError {
    return new ApiError(status, this.message, this.problems);
  }
}

/**
 * No, or an unusable, credential. Seed endpoints answer 403 for it, others 401
 * (docs/api.md, "Statuses").
 */
export class AuthenticationError extends ApiError {
  constructor(message = 'Authentication required', status: number = HttpStatus.UNAUTHORIZED) {
    super(status, message, [{ code: 'unauthenticated', message }]);
  }
}
