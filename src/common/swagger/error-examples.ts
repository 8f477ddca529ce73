import { getSchemaPath } from '@nestjs/swagger';
import type { Problem } from '../../engine/index.js';
import { statusText } from '../envelope/envelope.js';
import { ERROR_ENVELOPE } from './envelope.schema.js';

/** The `message` and `errors` of an error answer, as the service really gives them. */
export interface ErrorExample {
  message: string;
  errors: Problem[];
  /** When the status means something else here than its name says (seed routes). */
  description?: string;
}

const problem = (code: string, message: string, path?: string): ErrorExample => ({
  message,
  errors: [path === undefined ? { code, message } : { code, message, path }],
});

/** What a missing or unusable credential answers: 401, or 403 on the seed routes. */
const UNAUTHENTICATED = problem(
  'unauthenticated',
  'Missing, invalid, expired or revoked credential',
);
const SEED_UNAUTHENTICATED: ErrorExample = {
  ...UNAUTHENTICATED,
  description: 'No usable credential (403 on this route, as the seed contract fixes)',
};
const seedInvalid = (example: ErrorExample): ErrorExample => ({
  ...example,
  description: 'Invalid body (401 on this route, as the seed contract fixes)',
});
const INVALID_BODY: ErrorExample = {
  message: 'Bad request',
  errors: [{ code: 'is_email', message: 'email must be an email', path: 'email' }],
};
const MALFORMED_BODY: ErrorExample = {
  ...problem('malformed_json', 'The body is not valid JSON'),
  message: 'Malformed JSON body',
  description: 'A body was sent and it is not valid JSON (the route needs none)',
};
const NOT_A_MEMBER: ErrorExample = {
  message: 'User is not part of this supplier',
  errors: [{ code: 'not_a_member', message: 'You are not a member of this supplier' }],
};
const notFound = (message: string): ErrorExample => ({ message, errors: [] });
const INVALID_KEY: ErrorExample = {
  ...problem(
    'invalid_idempotency_key',
    'Idempotency-Key must be 1 to 255 printable characters',
    'Idempotency-Key',
  ),
  message: 'Invalid Idempotency-Key',
  description: 'An Idempotency-Key that is not 1 to 255 printable characters',
};
const IN_FLIGHT: ErrorExample = {
  message: 'Request in progress',
  errors: [
    {
      code: 'idempotency_key_in_flight',
      message: 'The first request with this Idempotency-Key is still running',
      path: 'Idempotency-Key',
    },
  ],
  description: 'The first request with this Idempotency-Key is still running',
};

/** An upload whose compile ran out of call stack (build-model.ts `runBuild`). */
const MODEL_TOO_DEEP: ErrorExample = {
  ...problem('model_too_deep', 'The model nests deeper than the engine can compile'),
  message: 'The model is nested too deeply',
};

/** By status, when the operation has nothing more specific. */
const BY_STATUS: Record<number, ErrorExample> = {
  400: INVALID_BODY,
  401: UNAUTHENTICATED,
  403: problem('forbidden', 'Only admins may do this'),
  404: notFound('Not found'),
  409: problem('duplicate', 'Conflicts with an existing resource'),
  413: problem('payload_too_large', 'request entity too large'),
  415: problem('unsupported_media_type', 'Expected application/json, got text/plain'),
  422: {
    message: 'Idempotency-Key reused',
    errors: [
      {
        code: 'idempotency_key_reused',
        message: 'This Idempotency-Key was used with another request',
        path: 'Idempotency-Key',
      },
    ],
  },
  423: problem('locked', 'admin@example.com holds the edit lock of this model'),
  429: problem('rate_limited', 'Too many attempts; retry in 60 s'),
  503: { message: statusText(503), errors: [] },
};

/** Where an operation's answer differs from the status's usual one. */
const BY_OPERATION: Record<string, Record<number, ErrorExample>> = {
  login: {
    403: {
      ...problem('invalid_credentials', 'Wrong email or password'),
      description: 'Wrong email or password (403, as the seed contract fixes)',
    },
  },
  createApiToken: {
    403: SEED_UNAUTHENTICATED,
    409: problem('duplicate', 'You already have a token with that name', 'name'),
  },
  createUser: { 409: problem('duplicate', 'A user with that email exists', 'email') },
  createCompany: {
    400: {
      message: 'Error while inserting the new company',
      errors: [
        { code: 'duplicate', message: 'A company with this vat_number exists', path: 'vat_number' },
      ],
    },
    401: seedInvalid(INVALID_BODY),
    403: SEED_UNAUTHENTICATED,
  },
  listCompanies: { 403: SEED_UNAUTHENTICATED, 404: notFound('Companies not found') },
  getCompany: { 403: SEED_UNAUTHENTICATED, 404: notFound('No company found') },
  listCompanySuppliers: { 403: SEED_UNAUTHENTICATED, 404: notFound('No suppliers found') },
  createSupplier: {
    403: SEED_UNAUTHENTICATED,
    404: notFound('No company found'),
    409: problem('duplicate', 'Error while inserting the new supplier'),
  },
  createModel: {
    400: problem('required', 'general.name is required', 'general.name'),
    401: {
      ...NOT_A_MEMBER,
      description: 'Not a member of the supplier (401, as the seed contract fixes)',
    },
    403: SEED_UNAUTHENTICATED,
    404: notFound('The supplier does not exist'),
    409: problem('duplicate', 'Another model of this supplier has that code', 'general.code'),
    422: MODEL_TOO_DEEP,
  },
  uploadModelVersion: {
    403: NOT_A_MEMBER,
    409: problem('stale_version', 'The model has a newer version'),
    422: MODEL_TOO_DEEP,
  },
  addCompanyMember: { 409: problem('duplicate', 'The user is already a member', 'user_id') },
  addSupplierMember: { 409: problem('duplicate', 'The user is already a member', 'user_id') },
  createCart: {
    400: INVALID_KEY,
    409: IN_FLIGHT,
    401: seedInvalid(problem('is_not_empty', 'reference should not be empty', 'reference')),
    403: SEED_UNAUTHENTICATED,
  },
  listCarts: { 400: problem('not_found', 'Carts not found'), 403: SEED_UNAUTHENTICATED },
  getDefaultCart: { 400: problem('not_found', 'Cart was not found'), 403: SEED_UNAUTHENTICATED },
  addCartLine: {
    400: INVALID_KEY,
    409: IN_FLIGHT,
    401: {
      description:
        'Invalid body or configuration (401, as the seed contract fixes); nothing is stored',
      message: 'The configuration is not valid',
      errors: [
        ...['width', 'frame'].map((question) => ({
          code: 'conflict',
          message:
            'the answers width = 2000, frame = "pvc" have no valid completion together ' +
            '(max_pvc_width: PVC frames are at most 1800 mm wide); change one of them',
          path: `questions.${question}`,
          answers: [
            { question: 'width', values: [2000] },
            { question: 'frame', values: ['pvc'] },
          ],
          rules: ['max_pvc_width'],
        })),
      ],
    },
    403: {
      ...SEED_UNAUTHENTICATED,
      description:
        'No usable credential, or a cart of another company (403, as the seed contract fixes)',
    },
    404: notFound('No model found'),
  },
  getCart: { 404: problem('not_found', 'Cart not found', 'cart_id') },
  removeCartLine: { 404: problem('not_found', 'Cart line not found', 'line_id') },
  getModel: { 404: notFound('No model found') },
  // POST routes without a body still read one if it is sent (finishDocument: 400/413/415).
  lockModel: { 400: MALFORMED_BODY },
  acceptInvitation: { 400: MALFORMED_BODY },
  getSupplier: { 404: notFound('The supplier does not exist') },
  revokeApiToken: { 404: notFound('No such API token') },
  revokeIntentToken: { 404: notFound('No such intent token') },
  checkReadiness: {
    503: problem('database_unavailable', 'The database does not answer'),
  },
};

/** The example envelope of an error status of an operation. */
export function errorExample(status: number, operationId = '') {
  const example = BY_OPERATION[operationId]?.[status] ??
    BY_STATUS[status] ?? { message: statusText(status), errors: [] };
  return { code: status, message: example.message, data: null, links: {}, errors: example.errors };
}

/** The description of an error status of an operation (undefined: the status's name). */
export function errorDescription(status: number, operationId = ''): string | undefined {
  return BY_OPERATION[operationId]?.[status]?.description;
}

/** The response object of an error status: the error envelope with a real example. */
export function errorResponse(status: number, operationId?: string) {
  return {
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ERROR_ENVELOPE) },
        example: errorExample(status, operationId),
      },
    },
  };
}
