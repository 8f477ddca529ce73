import { describe, expect, it } from 'vitest';
import { Deserializer, Serializer } from 'node:v8';
import { reviveGraph, SharedTexts } from '../../src/engine/revive-graph.js';

/** `value` as the V8 deserializer reads it back (what reviveModel walks). */
function deserialized<T>(value: T): T {
  const serializer = new Serializer();
  serializer.writeHeader();
  serializer.writeValue(value);
  const deserializer = new Deserializer(serializer.releaseBuffer());
  deserializer.readHeader();
  return deserializer.readValue() as T;
}

const unchanged = (value: unknown): unknown => value;

describe('reviveGraph', () => {
  it('keeps members, their key order, shared identity, Maps and typed arrays', () => {
    const shared = { name: 'shared', list: [1, 2.5, 'three'] };
    const source = {
      b: shared,
      a: [shared, { nested: [shared] }],
      7: 'seven',
      map: new Map<string, unknown>([['k', shared]]),
      bits: new Int32Array([1, 2, 3]),
      none: undefined,
      empty: null,
    };
    const read = deserialized(source);
    const copy = reviveGraph(read, unchanged, new SharedTexts()) as typeof source;
    expect(Object.keys(copy)).toEqual(Object.keys(source));
    expect(copy).toEqual(source);
    expect(copy.a[0]).toBe(copy.b);
    expect((copy.a[1] as { nested: unknown[] }).nested[0]).toBe(copy.b);
    expect(copy.map.get('k')).toBe(copy.b);
    expect(copy.bits).toBe(read.bits);
    expect(copy.map).not.toBe(read.map); // Maps are made again, their keys shared texts
    expect(copy.b).not.toBe(read.b); // plain objects are made again
  });

  it('keeps holes, and an own `__proto__` member as a member', () => {
    const holey: unknown[] = [];
    holey[2] = { x: 1 };
    const read = deserialized({ holey });
    const copy = reviveGraph(read, unchanged, new SharedTexts()) as { holey: unknown[] };
    expect(0 in copy.holey).toBe(false);
    expect(copy.holey[2]).toEqual({ x: 1 });
    const withProto = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as object;
    const revived = reviveGraph(deserialized(withProto), unchanged, new SharedTexts());
    expect(Object.getPrototypeOf(revived)).toBe(Object.prototype);
    expect(Object.keys(revived)).toEqual(['__proto__', 'y']);
  });

  it('stores what the reviver returns for a member, without walking it', () => {
    const marker = { tag: 1 };
    const read = deserialized({ a: { tag: 1 }, b: [{ tag: 1 }], c: 'text' });
    const copy = reviveGraph(
      read,
      (value) => (typeof value === 'object' && value !== null && 'tag' in value ? marker : value),
      new SharedTexts(),
    ) as { a: unknown; b: unknown[]; c: string };
    expect(copy.a).toBe(marker);
    expect(copy.b[0]).toBe(marker);
    expect(copy.c).toBe('text');
  });

  it('makes a shared Map once, and equal texts one string', () => {
    const map = new Map<string, unknown>([['a', ['x']]]);
    const read = deserialized({ one: map, two: [map], texts: ['same', 'same'] });
    const copy = reviveGraph(read, unchanged, new SharedTexts()) as {
      one: Map<string, unknown>;
      two: Array<Map<string, unknown>>;
      texts: string[];
    };
    expect(copy.two[0]).toBe(copy.one);
    expect([...copy.one]).toEqual([['a', ['x']]]);
    expect(copy.texts).toEqual(['same', 'same']);
  });

  it('walks a graph deeper than the call stack', () => {
    let deep: { next?: object } = {};
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    const copy = reviveGraph(deep, unchanged, new SharedTexts()) as { next?: object };
    let depth = 0;
    for (let node: { next?: object } | undefined = copy; node?.next; node = node.next) depth++;
    expect(depth).toBe(100_000);
  });
});
