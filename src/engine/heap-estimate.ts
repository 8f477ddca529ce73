import { Expression } from './cel/expression.js';
import { derivedCacheBytes } from './consistency/form.js';
import { nearestScratchBytes } from './consistency/nearest-by-search.js';
import { pairMatrixBytes } from './consistency/prepared.js';
import { priceBoundsBytes } from './consistency/segment-weights.js';
import { sharedPartBytes } from './evaluate/shared-parts.js';
import type { CompiledModel } from './model.js';
import { Money } from './money.js';

/**
 * An upper estimate of the heap a compiled model holds (docs/ENGINE.md "Memory bounds"),
 * read from the model as it is: a worker that compiled a model caches it under this size
 * without serialising it first. Per object, array, Map, string, typed array and decimal the
 * V8 layout cost on a 64-bit heap rounded up (headers, one 8-byte slot per member, hash
 * table entries), typed arrays at their byte length, strings counted at every reference
 * (never less than once), and per expression the cel-js AST and closures as a multiple of
 * its source length; then the caches its consistency form and its lines may grow while in
 * use. The constants were checked against the heap measured with `--expose-gc` (`npm run
 * bench`: the estimate is 1.2–1.8× the measured heap); test/engine/heap-estimate.test.ts
 * checks it bounds the model's transferable bytes (transfer.ts) within a stated factor.
 */
export function modelHeapBytes(model: CompiledModel): number {
  const size = new SizeEstimate();
  // The evaluation environment: a registry entry per question and variable key.
  for (const { key } of model.questions) size.name(key);
  for (const { key } of model.variables) size.name(key);
  const { extensions, ...rest } = model;
  size.value(JSON.stringify(extensions ?? {}));
  const seen = new Set<object>();
  const stack: object[] = [rest];
  while (stack.length > 0) {
    const node = stack.pop() as object;
    if (seen.has(node)) continue;
    seen.add(node);
    if (node instanceof Expression) {
      size.expression(node);
      continue;
    }
    size.node(node);
    const members = node instanceof Map ? [...node.keys(), ...node.values()] : Object.values(node);
    for (const member of members) {
      size.value(member);
      if (isWalkable(member)) stack.push(member);
    }
  }
  const form = model.consistency;
  const inUse =
    derivedCacheBytes(form) +
    pairMatrixBytes(form) +
    priceBoundsBytes(form) +
    nearestScratchBytes(form);
  return size.bytes + inUse + sharedPartBytes(model);
}

class SizeEstimate {
  bytes = 0;

  name(name: string): void {
    this.bytes += 160 + 2 * name.length;
  }

  expression({ source, path, names }: Expression): void {
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
    else if (value instanceof Money) this.bytes += 160;
  }
}

/** Members walked into: objects, arrays and Maps; a Money and a typed array are leaves. */
const isWalkable = (value: unknown): value is object =>
  value !== null &&
  typeof value === 'object' &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof Money);
