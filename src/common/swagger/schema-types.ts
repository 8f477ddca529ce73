import {
  ApiProperty,
  ApiPropertyOptional,
  type ApiPropertyOptions,
  type SchemaObject,
} from '@nestjs/swagger';
import { MAX_ID } from '../http/id-param.js';

/** 32-bit integers: ids are `integer` columns, so generated clients get ints, not floats. */
export const INT32 = { type: 'integer', format: 'int32' } as const;

/** A row id (a positive 32-bit integer). */
export const ApiId = (options: ApiPropertyOptions = {}) =>
  ApiProperty({
    ...INT32,
    minimum: 1,
    maximum: MAX_ID,
    example: 1,
    ...options,
  } as ApiPropertyOptions);

/** A 32-bit integer property. */
export const ApiInt = (options: ApiPropertyOptions = {}) =>
  ApiProperty({ ...INT32, ...options } as ApiPropertyOptions);

/** An optional 32-bit integer property. */
export const ApiIntOptional = (options: ApiPropertyOptions = {}) =>
  ApiPropertyOptional({ ...INT32, ...options } as ApiPropertyOptions);

/** A string that may be null (`type: string, nullable: true`, never `object`). */
export const ApiNullableString = (options: ApiPropertyOptions = {}) =>
  ApiProperty({ type: String, nullable: true, ...options } as ApiPropertyOptions);

/** An ISO 8601 timestamp. */
export const ApiTimestamp = (options: ApiPropertyOptions = {}) =>
  ApiProperty({
    type: String,
    format: 'date-time',
    example: '2026-11-22T10:00:00.000Z',
    ...options,
  } as ApiPropertyOptions);

/** A decimal amount as a string (exact, never a float). */
export const ApiDecimal = (options: ApiPropertyOptions = {}) =>
  ApiProperty({
    type: String,
    pattern: '^-?\\d+(\\.\\d+)?$',
    example: '125.00',
    ...options,
  } as ApiPropertyOptions);

/** Whole-body examples by schema name, applied by finishDocument. */
export const SCHEMA_EXAMPLES = new Map<string, unknown>();

/**
 * The example of a whole DTO: what Swagger UI prefills a request body with. Used where
 * per-property examples would not add up to a body that succeeds as it is (an optional
 * id that must name something, values that must be unique).
 */
export const ApiSchemaExample =
  (example: unknown): ClassDecorator =>
  (target) => {
    SCHEMA_EXAMPLES.set(target.name, example);
  };

/**
 * Named schemas written as plain OpenAPI (not DTO classes), added to the document's
 * components by finishDocument. A feature registers its own (the model document).
 */
export const EXTRA_SCHEMAS = new Map<string, SchemaObject>();
