import { getSchemaPath } from '@nestjs/swagger';
import type { Problem } from '../../engine/problems.js';
import { statusText } from '../envelope/envelope.js';
import { ERROR_ENVELOPE } from './envelope.schema.js';

/** One problem per status, as the service really answers it (messages from the code). */
const PROBLEMS: Record<number, Problem[]> = {
  400: [{ code: 'is_email', message: 'email must be an email', path: 'email' }],
  401: [{ code: 'unauthenticated', message: 'Authentication required' }],
  403: [{ code: 'not_a_member', message: 'User is not part of this supplier' }],
  404: [{ code: 'not_found', message: 'No company found' }],
  409: [{ code: 'duplicate', message: 'Another model of this supplier has that code' }],
  413: [{ code: 'limit_exceeded', message: 'The body exceeds the limit of 1048576 bytes' }],
  415: [
    {
      code: 'unsupported_media_type',
      message: 'Expected application/json, got text/plain',
    },
  ],
  422: [{ code: 'limit_exceeded', message: 'The model has more than 5000 questions' }],
  423: [{ code: 'locked', message: 'The model is locked by another user' }],
  429: [{ code: 'rate_limited', message: 'Too many attempts; retry in 60 s' }],
  503: [],
};

/** The example envelope of an error status. */
export function errorExample(status: number, problems?: Problem[]) {
  return {
    code: status,
    message: statusText(status),
    data: null,
    links: {},
    errors: problems ?? PROBLEMS[status] ?? [],
  };
}

/** The response object of an error status: the error envelope with a real example. */
export function errorResponse(status: number, problems?: Problem[]) {
  return {
    description: statusText(status),
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ERROR_ENVELOPE) },
        example: errorExample(status, problems),
      },
    },
  };
}
