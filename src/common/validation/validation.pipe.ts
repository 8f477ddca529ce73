import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { RequestValidationError } from '../errors/api-error.js';
import { type Problem, unsafeTextProblems } from '../../engine/index.js';
import { bodyFacts, memberOf, recordMemberText } from '../http/json-body-facts.js';
import { isPlainObject, passThroughFields, passThroughProblems } from './pass-through.js';
import { validationProblems } from './validation-problems.js';

/**
 * Validates every DTO; unknown fields are refused, every problem is reported.
 * Three additions to Nest's pipe:
 * - path parameters are left as they arrived: `transform: true` would turn `0x1` or `1.0`
 *   into 1 before `@IdParam` could refuse them (ids have one spelling, see parseId);
 * - bodies and query strings are checked for text no database may store alike (NUL,
 *   control characters, unpaired surrogates), once for every route rather than per DTO;
 * - `@PassThroughObject()` fields (a configuration's answers) skip class-transformer's
 *   deep copy: checked for shape here, handed on as parsed (see pass-through.ts).
 */
class AppValidationPipe extends ValidationPipe {
  constructor(
    options: ConstructorParameters<typeof ValidationPipe>[0],
    private readonly maxPassThroughKeys: number,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') return value;
    const fields = metadata.type === 'body' ? passThroughFields(metadata.metatype) : [];
    const checked = this.check(value, metadata, fields);
    if (checked === null) return super.transform(value, metadata);

    const { rest, kept, problems } = checked;
    let dto: unknown;
    try {
      dto = await super.transform(rest, metadata);
    } catch (error) {
      if (error instanceof RequestValidationError && problems.length > 0) {
        throw new RequestValidationError([...error.problems, ...problems]);
      }
      throw error;
    }
    if (problems.length > 0) throw new RequestValidationError(problems);
    for (const [field, given] of kept) (dto as Record<string, unknown>)[field] = given;
    return dto;
  }

  /**
   * The walks of a body or query: unsafe text (thrown at once), and the shape of its
   * pass-through fields, which are taken out of what class-transformer copies. Null when
   * the value has no pass-through fields.
   */
  private check(
    value: unknown,
    metadata: ArgumentMetadata,
    fields: readonly string[],
  ): Checked | null {
    // A body the JSON parser found verbatim holds no unsafe text (json-body-facts.ts).
    const facts = metadata.type === 'body' ? bodyFacts(value) : undefined;
    if ((metadata.type === 'body' && facts?.verbatim !== true) || metadata.type === 'query') {
      const problems = unsafeTextProblems(value);
      if (problems.length > 0) throw new RequestValidationError(problems, 'Invalid text');
    }
    if (fields.length === 0 || !isPlainObject(value)) return null;
    const kept = new Map<string, Record<string, unknown>>();
    const problems: Problem[] = [];
    const rest: Record<string, unknown> = { ...value };
    for (const field of fields) {
      const given = value[field];
      // Anything but a plain object goes to class-validator, which words it as before.
      if (!isPlainObject(given)) continue;
      const written = facts === undefined ? undefined : memberOf(facts, field);
      problems.push(...passThroughProblems(given, field, this.maxPassThroughKeys, facts, written));
      kept.set(field, given);
      // Handed on as parsed: its text in the body can stand for it (a worker's copy).
      if (facts !== undefined && written !== undefined) recordMemberText(given, facts, written);
      rest[field] = {};
    }
    return { rest, kept, problems };
  }
}

/** A body with pass-through fields, checked: the rest for class-validator, the fields kept. */
interface Checked {
  rest: Record<string, unknown>;
  kept: Map<string, Record<string, unknown>>;
  problems: Problem[];
}

/** `maxPassThroughKeys`: the widest pass-through object accepted (a model's question limit). */
export function createValidationPipe(maxPassThroughKeys: number): ValidationPipe {
  return new AppValidationPipe(
    {
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: false,
      // `value`: validationProblems tells a missing field from a wrong one (never answered).
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new RequestValidationError(validationProblems(errors)),
    },
    maxPassThroughKeys,
  );
}
