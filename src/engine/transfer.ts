import { Deserializer, Serializer } from 'node:v8';
import { createEnvironments } from './cel/environment.js';
import { Expression } from './cel/expression.js';
import type { LiteralPrograms } from './cel/regex.js';
import { type FormRelations, formRelations, prepareForm } from './consistency/prepared.js';
import { modelHeapBytes } from './heap-estimate.js';
import type { CompiledModel } from './model.js';
import { Money } from './money.js';
import { reviveGraph, SharedTexts } from './revive-graph.js';

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
  const texts = new SharedTexts();
  // A cel-js parse and check takes 10–100 µs each. The names, as the model's own strings
  // (revive-graph.ts), in a packed array (the deserializer's are holey).
  for (const [source, path, names, cost] of deserializer.readValue() as EncodedExpression[]) {
    const shared = names.map((name) => texts.get(name));
    expressions.push(Expression.compile(source, path, shared, cost, environment, programs));
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
  // Objects laid out as a compile lays them out, strings shared and internalized
  // (revive-graph.ts, docs/adr/0238).
  const revived = reviveGraph(rest, revive, texts) as Record<string, unknown>;
  const model = { ...revived, extensions } as unknown as CompiledModel;
  prepareForm(model.consistency, relations);
  return { model, bytes: modelHeapBytes(model) };
}

/** A revived model and an upper estimate of the heap it holds. */
export interface RevivedModel {
  readonly model: CompiledModel;
  readonly bytes: number;
}
