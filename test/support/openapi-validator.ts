import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/** The committed document (test/e2e/openapi-drift.e2e.test.ts keeps it equal to the app's). */
export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi.json', import.meta.url));

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

export interface RecordedResponse {
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: string;
}

const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Document;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
// OpenAPI 3.0 schemas: `nullable` is understood by Ajv; `example` and friends are not
// validation keywords, hence strict off.
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
for (const format of ['int32', 'int64', 'password', 'binary']) ajv.addFormat(format, true);
ajv.addSchema(document, 'openapi');
const validators = new Map<string, ValidateFunction>();

/** Path templates, literal segments first: /v1/carts/default before /v1/carts/{cart_id}. */
const routes = Object.keys(document.paths)
  .map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{path\}/g, '.+').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    params: (template.match(/\{/g) ?? []).length,
  }))
  .sort((a, b) => a.params - b.params);

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * What is wrong with one answer of the app, judged by the document: its status must be
 * documented for the operation, and a JSON body must match that status's closed schema.
 * Requests to no documented operation (unknown paths, /docs) are not judged.
 */
export function checkResponse(response: RecordedResponse): string[] {
  const method = response.method.toLowerCase();
  const path = decodeURI(response.url.split('?')[0] ?? '');
  const route = routes.find((r) => r.pattern.test(path) && document.paths[r.template]?.[method]);
  if (!route) return [];
  const where = `${response.method} ${path} → ${response.status}`;
  const operation = document.paths[route.template]![method]!;
  const documented = operation.responses[String(response.status)];
  if (!documented) return [`${where}: status not documented for ${route.template}`];
  const media = response.contentType.split(';')[0]!.trim();
  if (media !== 'application/json') return [];
  if (!documented.content?.['application/json']?.schema) {
    return [`${where}: a JSON body, but no JSON schema is documented`];
  }
  const key = `${route.template} ${method} ${response.status}`;
  let validate = validators.get(key);
  if (!validate) {
    const ref = pointer('paths', route.template, method, 'responses', String(response.status));
    validate = ajv.compile({ $ref: `openapi#/${ref}/content/application~1json/schema` });
    validators.set(key, validate);
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return [`${where}: the body is not JSON`];
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${where}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
  );
}
