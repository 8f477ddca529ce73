import { Deserializer, Serializer } from 'node:v8';
import { createEnvironments } from './cel/environment.js';
import { Expression } from './cel/expression.js';
import type { LiteralPrograms } from './cel/regex.js';
import { derivedCacheBytes } from './consistency/form.js';
import {
  type FormRelations,
  formRelations,
  pairMatrixBytes,
  prepareForm,
} from './consistency/prepared.js';
import { sharedPartBytes } from './evaluate/shared-parts.js';
import type { CompiledModel } from './model.js';
import { Money } from './money.js';

/**
 * A compiled model as bytes that can cross threads (docs/ENGINE.md "Where engine work
 * runs"): an upload's compile worker hands it to its evaluation worker. The evaluation
 * form holds cel-js closures, which cannot be cloned, so each `Expression`
 * travels as its checked source with its static cost, and each `Money` (a decimal.js
 * instance) as its exact text. The receiving worker revives the graph in place.
 *
 * Only engine-built structures are rewritten: `extensions` (verbatim user JSON) travels
 * untouched, so a user's data can never pose as an encoded expression.
 */

const EXPRESSION_TAG = '\u0000expression';
const MONEY_TAG = '\u0000money';

type EncodedExpression = readonly [string, string, readonly string[], number];

/**
 * The values of the stream, in order: the names bound in the evaluation environment
 * (question and variable keys), the expressions, the model without its extensions, the
 * extensions, the consistency form's relations (prepared.ts: built once, where the model
 * was compiled). One serializer writes them all, so shared objects keep their identity.
 */
type Names = readonly string[];

/** Serializes a compiled model (the model itself is left as it was). */
export function toTransferable(model: CompiledModel): Uint8Array {
  const expressions: EncodedExpression[] = [];
  const indexOf = new Map<Expression, number>();
  const copies = new Map<object, unknown>();
  const encode = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (value instanceof Expression) {
      let index = indexOf.get(value);
      if (index === undefined) {
        index = expressions.push([value.source, value.path, value.names, value.cost]) - 1;
        indexOf.set(value, index);
      }
      return { [EXPRESSION_TAG]: index };
    }
    if (value instanceof Money) return { [MONEY_TAG]: value.toString() };
    if (ArrayBuffer.isView(value)) return value;
    const known = copies.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      copies.set(value, copy);
      for (const item of value) copy.push(encode(item));
      return copy;
    }
    if (value instanceof Map) {
      const copy = new Map<unknown, unknown>();
      copies.set(value, copy);
      for (const [key, item] of value) copy.set(key, encode(item));
      return copy;
    }
    const copy: Record<string, unknown> = {};
    copies.set(value, copy);
    for (const [key, item] of Object.entries(value)) copy[key] = encode(item);
    return copy;
  };
  const { extensions, ...rest } = model;
  const encoded = encode(rest) as Record<string, unknown>;
  const serializer = new Serializer();
  serializer.writeHeader();
  const names: Names = [...model.questions.map((q) => q.key), ...model.variables.map((v) => v.key)];
  serializer.writeValue(names);
  serializer.writeValue(expressions);
  serializer.writeValue(encoded);
  serializer.writeValue(extensions);
  serializer.writeValue(formRelations(model.consistency));
  return serializer.releaseBuffer();
}

/** Revives a transferable model: the model, ready to evaluate, and its estimated heap. */
export function reviveModel(bytes: Uint8Array): RevivedModel {
  const deserializer = new Deserializer(bytes);
  deserializer.readHeader();
  const boundNames = deserializer.readValue() as Names;
  const environment = createEnvironments().evaluate;
  for (const name of boundNames) {
    environment.registerVariable(name, 'dyn');
  }
  const expressions: Expression[] = [];
  const programs: LiteralPrograms = new Map(); // the model's literal patterns, compiled once
  const size = new SizeEstimate();
  size.names(boundNames);
  // A cel-js parse and check takes 10–100 µs each.
  for (const [source, path, names, cost] of deserializer.readValue() as EncodedExpression[]) {
    expressions.push(Expression.compile(source, path, names, cost, environment, programs));
    size.expression(source, path, names);
  }
  const rest = deserializer.readValue() as Record<string, unknown>;
  const extensions = deserializer.readValue() as CompiledModel['extensions'];
  const relations = deserializer.readValue() as FormRelations;
  const revive = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
    if (EXPRESSION_TAG in value)
      return expressions[(value as Record<string, number>)[EXPRESSION_TAG]];
    if (MONEY_TAG in value) return new Money((value as Record<string, string>)[MONEY_TAG]);
    return value;
  };
  // Walks every object once, replacing encoded values.
  const seen = new Set<object>();
  const stack: object[] = [rest];
  /** The member's revived value (the caller stores it when it differs), queued to walk. */
  const visit = (item: unknown): unknown => {
    size.value(item);
    const revived = revive(item);
    if (Array.isArray(revived) || (revived === item && isWalkable(item)))
      stack.push(revived as object);
    return revived;
  };
  while (stack.length > 0) {
    const node = stack.pop() as object;
    if (seen.has(node)) continue;
    seen.add(node);
    size.node(node);
    if (node instanceof Map) {
      for (const [key, item] of node) {
        size.value(key);
        const revived = visit(item);
        if (revived !== item) node.set(key, revived);
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        const revived = visit(item);
        if (revived !== item) record[key] = revived;
      }
    }
  }
  size.value(JSON.stringify(extensions ?? {}));
  const model = { ...rest, extensions } as unknown as CompiledModel;
  // The caches its consistency form may grow while in use count too, and the line parts
  // shared by its evaluations.
  const form = model.consistency;
  prepareForm(form, relations);
  const held =
    size.bytes + derivedCacheBytes(form) + pairMatrixBytes(form) + sharedPartBytes(model);
  return { model, bytes: held };
}

/** A revived model and an upper estimate of the heap it holds. */
export interface RevivedModel {
  readonly model: CompiledModel;
  readonly bytes: number;
}

/**
 * An upper estimate of the heap a compiled model holds, summed while it is revived
 * (docs/ENGINE.md "Memory bounds"). Per object, array, Map, string, typed array and
 * decimal the V8 layout cost on a 64-bit heap rounded up (headers, one 8-byte slot per
 * member, hash table entries), strings counted at every reference (never less than
 * once), and per expression the cel-js AST and closures as a multiple of its source
 * length. The constants were checked against the heap measured with `--expose-gc`
 * (`npm run bench`: the estimate is 1.2–1.8× the measured heap).
 */
class SizeEstimate {
  bytes = 0;

  names(names: readonly string[]): void {
    // The evaluation environment: a registry entry per name.
    for (const name of names) this.bytes += 160 + 2 * name.length;
  }

  expression(source: string, path: string, names: readonly string[]): void {
    this.bytes += 1_000 + 160 * source.length + 2 * path.length + 16 * names.length;
  }

  node(node: object): void {
    if (node instanceof Map) this.bytes += 64 + 48 * node.size;
    else if (Array.isArray(node)) this.bytes += 32 + 8 * node.length;
    else this.bytes += 48 + 16 * Object.keys(node).length;
  }

  value(value: unknown): void {
    if (typeof value === 'string') this.bytes += 24 + 2 * value.length;
    else if (typeof value === 'bigint') this.bytes += 32;
    else if (ArrayBuffer.isView(value)) this.bytes += 96 + value.byteLength;
    else if (value !== null && typeof value === 'object' && MONEY_TAG in value) this.bytes += 160;
  }
}

const isWalkable = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !ArrayBuffer.isView(value);
