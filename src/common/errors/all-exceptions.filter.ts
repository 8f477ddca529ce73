import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Response } from 'express';
import {
  databaseProblemCode,
  isDatabaseUnavailable,
  isUniqueViolation,
} from '../../database/db-errors.js';
import type { Problem } from '../../engine/index.js';
import { statusText, type Envelope } from '../envelope/envelope.js';
import { ApiError } from './api-error.js';

const DATABASE_PROBLEMS = {
  database_unavailable: 'The database is unavailable; retry shortly',
  database_timeout: 'The database did not answer in time; retry shortly',
} as const;

interface Answer {
  status: number;
  message: string;
  problems: Problem[];
  headers?: Record<string, string>;
}

/**
 * The one place errors become responses: always the envelope, never a stack trace,
 * SQL text or file path. Unknown errors are logged and answered with a bare 500.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const response = host.switchToHttp().getResponse<Response>();
    const answer = this.answer(exception);
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(answer.headers ?? {}))
      response.setHeader(name, value);
    const body: Envelope<null> = {
      code: answer.status,
      message: answer.message,
      data: null,
      links: {},
      errors: answer.problems,
    };
    response.status(answer.status).json(body);
  }

  private answer(exception: unknown): Answer {
    if (exception instanceof ApiError) {
      return {
        status: exception.getStatus(),
        message: exception.message,
        problems: exception.problems,
        headers: exception.headers,
      };
    }
    if (exception instanceof HttpException) return this.fromHttpException(exception);
    const bodyParser = bodyParserError(exception);
    if (bodyParser) return bodyParser;
    if (isDatabaseUnavailable(exception)) {
      this.logger.error(`Database unavailable: ${describe(exception)}`);
      const code = databaseProblemCode(exception);
      return {
        status: 503,
        message: statusText(503),
        problems: [{ code, message: DATABASE_PROBLEMS[code] }],
        headers: { 'Retry-After': '5' },
      };
    }
    if (isUniqueViolation(exception)) {
      return { status: 409, message: 'Conflicts with an existing resource', problems: [] };
    }
    this.logger.error(
      describe(exception),
      exception instanceof Error ? exception.stack : undefined,
    );
    return { status: 500, message: statusText(500), problems: [] };
  }

  private fromHttpException(exception: HttpException): Answer {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const text =
      typeof response === 'object' && response !== null && 'message' in response
        ? (response as { message: unknown }).message
        : response;
    const messages = (Array.isArray(text) ? text : [text]).filter((m) => typeof m === 'string');
    const message = status === HttpStatus.NOT_FOUND ? statusText(404) : statusText(status);
    return {
      status,
      message,
      problems: messages.map((m) => ({ code: codeFor(status), message: m as string })),
    };
  }
}

/** Errors thrown by body-parser and multer carry their HTTP status and a `type`. */
function bodyParserError(exception: unknown): Answer | null {
  const error = exception as {
    status?: number;
    statusCode?: number;
    type?: string;
    limit?: number;
  };
  const status = error?.status ?? error?.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  if (error.type === 'entity.too.large') {
    const limit = error.limit ? ` of ${error.limit} bytes` : '';
    return {
      status: 413,
      message: statusText(413),
      problems: [{ code: 'limit_exceeded', message: `The body exceeds the limit${limit}` }],
    };
  }
  return {
    status,
    message: statusText(status),
    problems: [{ code: codeFor(status), message: statusText(status) }],
  };
}

function codeFor(status: number): string {
  return statusText(status).toLowerCase().replace(/\s+/g, '_');
}

function describe(exception: unknown): string {
  return exception instanceof Error ? `${exception.name}: ${exception.message}` : String(exception);
}
