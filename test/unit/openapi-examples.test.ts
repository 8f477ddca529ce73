import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What Swagger UI shows as a success example is built from the schemas: a string without
 * an example, enum or format becomes the placeholder "string", and an `errors` item the
 * problem example. openapi.json as committed (the drift test keeps it the app's).
 */
type Schema = Record<string, any>;
const document = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'openapi.json'), 'utf8'),
) as {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
};
const schemas = document.components.schemas;

const isPlainString = (schema: Schema): boolean =>
  schema.type === 'string' &&
  !('example' in schema) &&
  !('enum' in schema) &&
  !('format' in schema);

/** Property paths of `schema` whose sample would be the placeholder "string". */
function placeholders(schema: Schema, at: string, seen: Set<string>, out: string[]): void {
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    if (seen.has(name)) return;
    placeholders(schemas[name]!, name, new Set([...seen, name]), out);
    return;
  }
  if ('example' in schema) return; // the whole example is shown as it is
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const part of (schema[key] ?? []) as Schema[]) placeholders(part, at, seen, out);
  for (const [name, property] of Object.entries(
    (schema.properties ?? {}) as Record<string, Schema>,
  )) {
    if (isPlainString(property)) out.push(`${at}.${name}`);
    placeholders(property, `${at}.${name}`, seen, out);
  }
  if (schema.items) placeholders(schema.items as Schema, `${at}[]`, seen, out);
}

const successes = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, operation]) =>
    Object.entries((operation.responses ?? {}) as Record<string, Schema>)
      .filter(([status]) => status.startsWith('2'))
      .map(([status, response]) => ({
        route: `${method.toUpperCase()} ${path} ${status}`,
        schema: response.content?.['application/json']?.schema as Schema | undefined,
      }))
      .filter((answer): answer is { route: string; schema: Schema } => answer.schema !== undefined),
  ),
);

describe('success examples in openapi.json', () => {
  it('has JSON success answers to check', () => {
    expect(successes.length).toBeGreaterThan(40);
  });

  it('show no "string" placeholder: every plain string property has an example', () => {
    const found = new Set<string>();
    for (const { schema } of successes) {
      const out: string[] = [];
      placeholders(schema, 'data', new Set(), out);
      for (const one of out) found.add(one);
    }
    expect([...found].sort()).toEqual([]);
  });

  it('show an empty errors list: a success envelope has no error items', () => {
    for (const { route, schema } of successes) {
      expect(schema.properties.errors, route).toMatchObject({ maxItems: 0, example: [] });
    }
  });
});
