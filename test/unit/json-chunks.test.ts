import type { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { heldOrStreamed, jsonChunks } from '../../src/common/envelope/json-chunks.js';
import { JsonBytes } from '../../src/common/http/json-bytes.js';
import { JsonText } from '../../src/common/http/json-text.js';
import { prng as seeded } from '../support/prng.js';

const text = (value: unknown): string => Buffer.concat(jsonChunks(value)).toString('utf8');

/** A small random JSON-ish value, with what JSON.stringify leaves out or rewrites. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 5 ? 7 : 10));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return Math.round(random() * 1e6) / 100;
    case 3:
      return `s${Math.floor(random() * 100)} "quoted" \u2019\n`;
    case 4:
      return undefined;
    case 5:
      return new Date(Math.floor(random() * 1e12));
    case 6:
      return () => 1;
    case 7:
    case 8: {
      const length = Math.floor(random() * 12);
      return Array.from({ length }, () => randomValue(random, depth + 1));
    }
    default: {
      const object: Record<string, unknown> = {};
      const size = Math.floor(random() * 8);
      for (let i = 0; i < size; i++) object[`k${i}\u00e9`] = randomValue(random, depth + 1);
      return object;
    }
  }
}

describe('jsonChunks', () => {
  it('writes the bytes of the text JSON.stringify writes, for 500 random values', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const value = { data: randomValue(seeded(seed), 0), links: {}, errors: [] };
      expect(text(value), `seed ${seed}`).toBe(JSON.stringify(value));
    }
  });

  it('keeps class instances, maps and boxed values as JSON.stringify does', () => {
    class Dto {
      constructor(
        readonly id: number,
        readonly items: unknown[],
      ) {}
    }
    const value = {
      dto: new Dto(1, [new Map([[1, 2]]), new Set([1]), Object(5), Object('x')]),
      nothing: undefined,
    };
    expect(text(value)).toBe(JSON.stringify(value));
  });

  it('copies JsonText members as they are, and gives the same JSON at any depth', () => {
    const definition = { general: { name: 'Window \u00e9' }, questions: [{ key: 'w' }] };
    const json = () => new JsonText(Buffer.from(JSON.stringify(definition), 'utf8'));
    const shallow = json();
    const value = {
      data: { id: 1, definition: shallow, nested: [{ deep: [json()] }] },
      meta: json(),
    };
    const expected = JSON.stringify({
      data: { id: 1, definition, nested: [{ deep: [definition] }] },
      meta: definition,
    });
    expect(text(value)).toBe(expected);
    // The shallow one is the very buffer, not a copy.
    expect(jsonChunks(value)).toContain(shallow.chunks[0]);
    expect(JSON.stringify(value)).toBe(expected);
  });
});

async function read(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

describe('heldOrStreamed', () => {
  const pieces = ['{"a":', '[1,2,3]', ',"b":"x"}'].map((piece) => Buffer.from(piece));

  it('holds an answer up to the bound whole', async () => {
    const answer = await heldOrStreamed(pieces, 1024);
    expect(answer).toBeInstanceOf(JsonBytes);
    expect((answer as JsonBytes).bytes.toString()).toBe('{"a":[1,2,3],"b":"x"}');
  });

  it('streams one past it: the same bytes, the rest pulled as the stream is read', async () => {
    let pulled = 0;
    async function* source() {
      for (const piece of pieces) {
        pulled++;
        yield piece;
      }
    }
    const answer = await heldOrStreamed(source(), 4);
    expect(answer).toBeInstanceOf(StreamableFile);
    expect(pulled).toBe(1);
    expect(await read((answer as StreamableFile).getStream())).toBe('{"a":[1,2,3],"b":"x"}');
    expect(pulled).toBe(3);
  });

  it('fails the stream when its source fails after the first bytes', async () => {
    async function* source() {
      yield* pieces.slice(0, 2);
      throw new Error('gone');
    }
    const answer = (await heldOrStreamed(source(), 4)) as StreamableFile;
    await expect(read(answer.getStream())).rejects.toThrow('gone');
  });
});
