import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger';
import { statusText } from '../envelope/envelope.js';
import { errorDescription, errorResponse } from './error-examples.js';
import { ERROR_ENVELOPE, envelopeSchema, NULL_DATA } from './envelope.schema.js';
import { OPERATION_IDS, WITHOUT_DATABASE, WRITES_WITH_ETAG } from './operations.js';
import { EXTRA_SCHEMAS, INT32, SCHEMA_EXAMPLES } from './schema-types.js';
import { MAX_ID } from '../http/id-param.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const REQUEST_ID_HEADER = {
  description: 'The request id (echoed from the request, or generated): quote it in reports',
  schema: { type: 'string', example: '0b5e6f9e-3c1a-4a57-9c52-2f0d7b1f4a10' },
};

const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before retrying',
  schema: { ...INT32, example: 5 },
};

const ETAG_HEADER = {
  description:
    "A validator of this answer (weak; a model's version on GET /v1/models/{id}): send a " +
    "read's back as If-None-Match to be answered 304 while the answer is the same. On a " +
    'write that returns a line or a model version, the one to send as If-Match on its next ' +
    'write. None on an answer streamed because it is larger than ANSWER_STREAM_BYTES (no ' +
    'Content-Length either)',
  schema: { type: 'string', example: 'W/"1c4-2cyAi0p0zDWlSHS7w1yTN0JbZt4"' },
};

const IF_NONE_MATCH: ParameterObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The ETag of an earlier answer: 304 without a body while the answer is the same',
  schema: { type: 'string' },
};

const NOT_MODIFIED: ResponseObject = {
  description:
    'Not Modified: the answer is the one whose ETag was sent in If-None-Match (no body). ' +
    "Measurements in it (a cart line's `cache.evaluated_in_ms`) do not count as changes",
};

const IDEMPOTENCY_KEY = 'Idempotency-Key';

const REPLAYED_HEADER = {
  description: '`true` when this is the stored answer of an earlier request with the same key',
  schema: { type: 'string', enum: ['true'] },
};

/**
 * What the decorators cannot say, applied to the document in one place: operationIds,
 * `security: []` on public routes, the error envelope and a real example on every error
 * answer, the statuses every route of a kind may give (413/415 for bodies, 503 when the
 * database is gone, 400/409/422 for an Idempotency-Key, 304 and If-None-Match on JSON
 * reads), the response headers, integer path ids, and closed
 * (`additionalProperties: false`) DTO schemas.
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components ??= {}).schemas ?? {};
  document.components.schemas = schemas;
  schemas[ERROR_ENVELOPE] = envelopeSchema(NULL_DATA, 400);
  for (const [name, schema] of EXTRA_SCHEMAS) schemas[name] = schema;
  for (const schema of Object.values(schemas)) closeSchema(schema);
  for (const [name, example] of SCHEMA_EXAMPLES) {
    const schema = schemas[name];
    if (schema && !('$ref' in schema)) schema.example = example;
  }
  document.components.headers = {
    'X-Request-Id': REQUEST_ID_HEADER,
    'Retry-After': RETRY_AFTER_HEADER,
    'Idempotent-Replayed': REPLAYED_HEADER,
    ETag: ETAG_HEADER,
  };

  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) finishOperation(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return document;
}

function finishOperation(route: string, operation: OperationObject): void {
  operation.operationId = OPERATION_IDS[route] ?? operation.operationId;
  operation.security ??= [];
  const responses = operation.responses as Record<string, ResponseObject>;
  // A body may come with any POST, PUT or PATCH, declared or not: one that does not parse
  // is a 400, one too large a 413, one not JSON a 415 (json-body.middleware.ts).
  if (hasBody(operation) || BODY_METHOD.test(route)) {
    responses['400'] ??= { description: '' };
    responses['413'] ??= { description: '' };
    responses['415'] ??= { description: '' };
  }
  if (!WITHOUT_DATABASE.includes(route)) responses['503'] ??= { description: '' };
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  // JSON answers to GET carry an ETag (express's, or the envelope's): If-None-Match → 304.
  const validated = revalidated(route, responses);
  const writeTagged = WRITES_WITH_ETAG.includes(route);
  if (validated) {
    parameters.push(IF_NONE_MATCH);
    operation.parameters = parameters;
    responses['304'] ??= { ...NOT_MODIFIED };
  }
  // @Idempotent routes (their header): a bad key 400, a key still running 409, a key
  // reused with another body 422, and a replayed answer says so.
  const idempotent = parameters.some((p) => p.in === 'header' && p.name === IDEMPOTENCY_KEY);
  if (idempotent) {
    for (const status of ['400', '409', '422']) responses[status] ??= { description: '' };
  }
  for (const parameter of parameters) {
    // Numeric path parameters are row ids (@IdParam: positive 32-bit integers, else 404).
    const schema = parameter.schema as SchemaObject | undefined;
    if (parameter.in === 'path' && schema?.type === 'number') {
      parameter.schema = { ...INT32, minimum: 1, maximum: MAX_ID };
      parameter.example ??= 1;
    }
  }
  for (const [code, response] of Object.entries(responses)) {
    const status = Number(code);
    const tagged =
      (validated && (status === 200 || status === 304)) ||
      (writeTagged && status >= 200 && status < 300);
    if (status >= 400) {
      response.description =
        errorDescription(status, operation.operationId) ??
        (response.description || statusText(status));
      Object.assign(response, errorResponse(status, operation.operationId));
    }
    response.headers = {
      ...response.headers,
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
      ...(idempotent && status < 300
        ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }
        : {}),
      ...(tagged ? { ETag: { $ref: '#/components/headers/ETag' } } : {}),
      ...(status === 429 || status === 503 || (idempotent && status === 409)
        ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
        : {}),
    };
  }
  operation.responses = sortedByStatus(responses);
}

/** A GET of the API whose answer is JSON: what a client revalidates (read-etag.ts). */
function revalidated(route: string, responses: Record<string, ResponseObject>): boolean {
  if (!route.startsWith('GET /v1/')) return false;
  return responses['200']?.content?.['application/json'] !== undefined;
}

const BODY_METHOD = /^(POST|PUT|PATCH) /;

function hasBody(operation: OperationObject): boolean {
  return operation.requestBody !== undefined;
}

/** An object schema with named properties and no word on others gets no others. */
function closeSchema(schema: SchemaObject | ReferenceObject): void {
  if ('$ref' in schema) return;
  if (schema.properties && schema.additionalProperties === undefined) {
    schema.additionalProperties = false;
  }
}

function sortedByStatus<T>(responses: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
