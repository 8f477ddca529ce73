import 'reflect-metadata';
import type { Problem } from '../../engine/index.js';
import type { JsonBodyFacts, MemberText } from '../http/json-body-facts.js';

const PASS_THROUGH = Symbol('pass-through-fields');

/**
 * Keys refused anywhere inside a pass-through object: harmless to the engine (it reads
 * answers through Maps), but a trap for any code that later indexes a plain object.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A configuration's answers are `{key: {values: [...]}}`: 3 levels; a little room for mistakes. */
const PASS_THROUGH_MAX_DEPTH = 8;
/** Problems listed at most for one field: a hostile body gets a useful answer, not a huge one. */
const MAX_PROBLEMS = 20;

/**
 * A body field the validation pipe hands to the service as it was parsed, instead of
 * letting class-transformer deep-copy it (for 5,000 answers that copy cost 35 ms, and
 * the consumer validates every member anyway: the engine checks each answer against the
 * model). The pipe only checks that it is a plain object, at most `maxKeys` members
 * wide and PASS_THROUGH_MAX_DEPTH deep, without reserved keys. Put it beside
 * `@IsObject()`, which still words a value that is not an object.
 */
export function PassThroughObject(): PropertyDecorator {
  return (target, property) => {
    const fields = (Reflect.getMetadata(PASS_THROUGH, target) as string[] | undefined) ?? [];
    Reflect.defineMetadata(PASS_THROUGH, [...fields, String(property)], target);
  };
}

/** The pass-through fields of a DTO class (inherited ones included). */
export function passThroughFields(type: unknown): readonly string[] {
  if (typeof type !== 'function') return [];
  return (
    (Reflect.getMetadata(PASS_THROUGH, type.prototype as object) as string[] | undefined) ?? []
  );
}

/**
 * A member of the body sits one level below its top, so a body at most
 * PASS_THROUGH_MAX_DEPTH + 1 deep holds no member too deep; a verbatim body whose bytes
 * never quote a reserved word has no such key.
 */
function vouchedFor(body: JsonBodyFacts): boolean {
  if (!body.verbatim || body.depth > PASS_THROUGH_MAX_DEPTH + 1) return false;
  for (const key of RESERVED_KEYS) if (body.raw.includes(`"${key}"`)) return false;
  return true;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * Why `value` (a plain object, at `path`) may not pass: too many members, too deep, or
 * a reserved key (with its path). Linear in the object's size; recursion is bounded by
 * PASS_THROUGH_MAX_DEPTH, and paths are built only for problems. `body`: the facts of the
 * request body `value` is the member `path` of; when they vouch for it (not deep enough to
 * be too deep, strings verbatim and no reserved key written anywhere), it is not walked.
 * `written`: where the body writes that member (`memberOf`), when the scan noted it.
 */
export function passThroughProblems(
  value: object,
  path: string,
  maxKeys: number,
  body?: JsonBodyFacts,
  written?: MemberText,
): Problem[] {
  // The member's commas in the body bound its width: 5,000 keys need not be listed.
  if (written === undefined || written.widthAtMost > maxKeys) {
    const width = Object.keys(value).length;
    if (width > maxKeys) {
      const message = `${path} has ${width} members; at most ${maxKeys} are accepted`;
      return [{ code: 'too_many_members', message, path }];
    }
  }
  if (body !== undefined && vouchedFor(body)) return [];
  const problems: Problem[] = [];
  // The keys down to the container being visited (numbers: array indexes).
  const trail: Array<string | number> = [];
  const pathTo = (key: string): string =>
    [...trail, key].reduce<string>(
      (at, step) => (typeof step === 'number' ? `${at}[${step}]` : `${at}.${step}`),
      path,
    );
  const visit = (node: object, depth: number): boolean => {
    if (depth > PASS_THROUGH_MAX_DEPTH) {
      const message = `${path} is nested deeper than ${PASS_THROUGH_MAX_DEPTH} levels`;
      problems.splice(0, problems.length, { code: 'too_deep', message, path });
      return false;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (child === null || typeof child !== 'object') continue;
        trail.push(i);
        if (!visit(child, depth + 1)) return false;
        trail.pop();
      }
      return true;
    }
    for (const key of Object.keys(node)) {
      if (RESERVED_KEYS.has(key)) {
        const message = `'${key}' is not accepted as a key`;
        problems.push({ code: 'reserved_key', message, path: pathTo(key) });
        if (problems.length >= MAX_PROBLEMS) return false;
      }
      const child = (node as Record<string, unknown>)[key];
      if (child === null || typeof child !== 'object') continue;
      trail.push(key);
      if (!visit(child, depth + 1)) return false;
      trail.pop();
    }
    return true;
  };
  visit(value, 1);
  return problems;
}
