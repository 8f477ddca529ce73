import { Deserializer, Serializer } from 'node:v8';
import { createEnvironments } from './cel/environment.js';
import { Expression } from './cel/expression.js';
import { derivedCacheBytes } from './consistency/form.js';
import { sharedPartBytes } from './evaluate/shared-parts.js';
import type { CompiledModel } from './model.js';
import { Money } from './money.js';

/**
 * A compiled model as bytes that can cross threads (docs/ENGINE.md "Compiling off the
 * event loop"). A worker compiles and validates (the expensive, blocking part); the
 * evaluation form holds cel-js closures, which cannot be cloned, so each `Expression`
 * travels as its checked source with its static cost, and each `Money` (a decimal.js
 * instance) as its exact text. The receiving thread revives the graph in place, in
 * slices: `reviveSteps` yields after about `SLICE_NODES` objects or expressions.
 *
 * Only engine-built structures are rewritten: `extensions` (verbatim user JSON) travels
 * untouched, so a user's data can never pose as an encoded expression.
 */

const EXPRESSION_TAG = '\u0000expression';
const MONEY_TAG = '\u0000money';
/** Stands for a long array written after the members, in slices (its index in `chunked`). */
const CHUNKED_TAG = '\u0000chunked';

type EncodedExpression = readonly [string, string, readonly string[], number];

/** The first value of the stream: what follows it. */
interface Header {
  /** Names bound in the evaluation environment (question and variable keys). */
  readonly names: readonly string[];
  readonly expressionSlices: number;
  /** Top-level members in order, one value each (long arrays in them are chunked). */
  readonly members: readonly string[];
  /** Per long array, anywhere in the model: the number of slices it is written in. */
  readonly chunked: readonly number[];
}

/**
 * Array elements per serialized value: each value is deserialized between two yields,
 * so an array longer than this, at any depth (the questions, a text catalog's hundreds
 * of thousands of texts), is written as slices of its own.
 */
const SLICE_ELEMENTS = 200;

/** Expressions per serialized value. */
const EXPRESSIONS_PER_SLICE = 100;

const slicesOf = <T>(items: readonly T[], size = SLICE_ELEMENTS): T[][] => {
  const slices: T[][] = [];
  for (let i = 0; i < items.length; i += size) slices.push(items.slice(i, i + size));
  return slices;
};

/** Serializes a compiled model (the model itself is left as it was). */
export function toTransferable(model: CompiledModel): Uint8Array {
  const expressions: EncodedExpression[] = [];
  const indexOf = new Map<Expression, number>();
  const copies = new Map<object, unknown>();
  const chunked: unknown[][] = [];
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
      // A shared long array is one chunked array: every reference gets the same marker.
      const stored = value.length > SLICE_ELEMENTS ? { [CHUNKED_TAG]: chunked.length } : copy;
      if (stored !== copy) chunked.push(copy);
      copies.set(value, stored);
      for (const item of value) copy.push(encode(item));
      return stored;
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
  // One serializer for every value: objects shared between values keep their identity.
  const serializer = new Serializer();
  serializer.writeHeader();
  const expressionSlices = slicesOf(expressions, EXPRESSIONS_PER_SLICE);
  const chunkSlices = chunked.map((items) => slicesOf(items));
  const header: Header = {
    names: [...model.questions.map((q) => q.key), ...model.variables.map((v) => v.key)],
    expressionSlices: expressionSlices.length,
    members: Object.keys(encoded),
    chunked: chunkSlices.map((slices) => slices.length),
  };
  serializer.writeValue(header);
  for (const slice of expressionSlices) serializer.writeValue(slice);
  for (const key of header.members) serializer.writeValue(encoded[key]);
  for (const slices of chunkSlices) for (const slice of slices) serializer.writeValue(slice);
  serializer.writeValue(extensions);
  return serializer.releaseBuffer();
}

/**
 * Objects, object members or expressions revived between two yields (well under a
 * millisecond each on the development VM; the slice clock decides when to pause).
 */
export const SLICE_ITEMS = 1_000;

/**
 * Revives a transferable model in slices: iterate the generator, yielding to the event
 * loop between steps; its return value is the model, ready to evaluate.
 */
export function reviveModel(bytes: Uint8Array): RevivedModel {
  const deserializer = new Deserializer(bytes);
  deserializer.readHeader();
  const header = deserializer.readValue() as Header;
  const environment = createEnvironments().evaluate;
  for (const name of header.names) {
    environment.registerVariable(name, 'dyn');
  }
  const expressions: Expression[] = [];
  const size = new SizeEstimate();
  size.names(header.names);
  for (let i = 0; i < header.expressionSlices; i++) {
    const slice = deserializer.readValue() as EncodedExpression[];
    for (const [source, path, names, cost] of slice) {
      expressions.push(Expression.compile(source, path, names, cost, environment));
      size.expression(source, path, names);
      // A cel-js parse and check takes 10–100 µs.
    }
  }
  const rest: Record<string, unknown> = {};
  for (const key of header.members) {
    rest[key] = deserializer.readValue();
  }
  const chunked: unknown[][] = [];
  for (const slices of header.chunked) {
    const items: unknown[] = [];
    for (let i = 0; i < slices; i++) {
      for (const item of deserializer.readValue() as unknown[]) items.push(item);
    }
    chunked.push(items);
  }
  const extensions = deserializer.readValue() as CompiledModel['extensions'];
  const revive = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
    if (EXPRESSION_TAG in value)
      return expressions[(value as Record<string, number>)[EXPRESSION_TAG]];
    if (MONEY_TAG in value) return new Money((value as Record<string, string>)[MONEY_TAG]);
    if (CHUNKED_TAG in value) return chunked[(value as Record<string, number>)[CHUNKED_TAG]];
    return value;
  };
  // Walks every object once, replacing encoded values; a chunked array is walked as well.
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
  const held = size.bytes + derivedCacheBytes(model.consistency) + sharedPartBytes(model);
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
