import { createHash } from 'node:crypto';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { compileModel, evaluateConfiguration, type Slicing } from '../../src/engine/index.js';
import { windowDocument } from '../engine/helpers.js';
import { serializeInSlices } from '../../src/common/event-loop/sliced-json.js';
import { weakEtag } from '../../src/common/http/read-etag.js';
import { JsonText } from '../../src/common/http/json-text.js';
import { prng as seeded } from '../support/prng.js';

const stringifyInSlices = async (value: unknown, slicing: Slicing): Promise<string> =>
  (await serializeInSlices(value, slicing)).bytes.toString('utf8');

const noPause = { sliceMs: 60_000, pause: () => Promise.resolve() };

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

describe('serializeInSlices', () => {
  it('writes the bytes of the text JSON.stringify writes, for 500 random values', async () => {
    for (let seed = 1; seed <= 500; seed++) {
      const value = { data: randomValue(seeded(seed), 0), links: {}, errors: [] };
      expect(await stringifyInSlices(value, noPause), `seed ${seed}`).toBe(JSON.stringify(value));
    }
  });

  it('keeps class instances, maps and boxed values as JSON.stringify does', async () => {
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
    expect(await stringifyInSlices(value, noPause)).toBe(JSON.stringify(value));
  });

  it('pauses while writing a large value, and only then', async () => {
    const large = {
      data: {
        questions: Array.from({ length: 20_000 }, (_, i) => ({ key: `q${i}`, values: [i] })),
      },
    };
    let pauses = 0;
    const slicing = {
      sliceMs: 0,
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    };
    expect(await stringifyInSlices(large, slicing)).toBe(JSON.stringify(large));
    expect(pauses).toBeGreaterThan(100);

    // A small value is written long before a slice of 50 ms is over.
    pauses = 0;
    await stringifyInSlices({ data: { id: 1, items: [1, 2, 3] } }, { ...slicing, sliceMs: 50 });
    expect(pauses).toBe(0);
  });
});

/** A line question or option, or a list holding one (what JSON.stringify must not get). */
const holdsQuestions = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some(holdsQuestions)
    : typeof value === 'object' && value !== null && ('visible' in value || 'available' in value);

/**
 * `value` written twice (the first time prepares the model's text, with JSON.stringify),
 * and what JSON.stringify was given the second time.
 */
async function writtenTwice(value: unknown): Promise<{ text: string; arguments: unknown[] }> {
  await stringifyInSlices(value, noPause);
  const stringify = vi.spyOn(JSON, 'stringify');
  try {
    const text = await stringifyInSlices(value, noPause);
    return { text, arguments: stringify.mock.calls.map(([argument]) => argument as unknown) };
  } finally {
    stringify.mockRestore();
  }
}

describe('a cart line in the envelope', () => {
  it('is written from the engine’s prepared text, and equals JSON.stringify', async () => {
    const model = compileModel(windowDocument());
    if (!model.ok) throw new Error('the window example compiles');
    for (const questions of [{}, { width: { values: [2600] }, frame: { values: ['wood'] } }]) {
      const line = evaluateConfiguration(model.model, {
        modelId: 1,
        versionNumber: 1,
        questions,
        languageCode: 'nl',
      }).line;
      const envelope = { code: 200, message: 'OK', data: { ...line, id: null }, errors: [] };
      const { text, arguments: given } = await writtenTwice(envelope);
      // JSON.stringify wrote the rest of the line, never a question or an option.
      expect(given.filter(holdsQuestions)).toEqual([]);
      expect(text).toBe(JSON.stringify(envelope));
    }
  });
});

describe('a page of cart lines', () => {
  it('is written line by line, each line’s questions from the engine’s text', async () => {
    const model = compileModel(windowDocument());
    if (!model.ok) throw new Error('the window example compiles');
    for (const view of ['full', 'compact'] as const) {
      const lines = [{}, { width: { values: [2600] } }, { frame: { values: ['wood'] } }].map(
        (questions, id) => ({
          id,
          ...evaluateConfiguration(model.model, { modelId: 1, versionNumber: 1, questions, view })
            .line,
        }),
      );
      const page = { code: 200, data: { cart_id: 'c', lines, total: '1.00' }, errors: [] };
      const { text, arguments: given } = await writtenTwice(page);
      // No call got a whole line (one with `questions`) or a list of them.
      const whole = given.filter((argument) =>
        (Array.isArray(argument) ? argument : [argument]).some(
          (item) => typeof item === 'object' && item !== null && 'questions' in item,
        ),
      ).length;
      expect(whole, view).toBe(0);
      expect(text, view).toBe(JSON.stringify(page));
    }
  });
});

describe('serializeInSlices with a hash', () => {
  const large = {
    data: { items: Array.from({ length: 5_000 }, (_, i) => ({ key: `k${i}`, n: i })) },
  };

  it('hashes a large answer (more than one piece) when asked, in the same slices', async () => {
    const { bytes, sha1 } = await serializeInSlices(large, noPause, true);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(large));
    expect(bytes.length).toBeGreaterThan(32 * 1024);
    expect(sha1).toBe(createHash('sha1').update(bytes).digest('base64'));
    expect((await serializeInSlices(large, noPause, false)).sha1).toBeUndefined();
    // A small answer is one piece: express hashes it when it sends it.
    expect((await serializeInSlices({ data: 1 }, noPause, true)).sha1).toBeUndefined();
  });

  it('gives the ETag express gives the same bytes (weakEtag)', async () => {
    const { bytes, sha1 } = await serializeInSlices(large, noPause, true);
    const app = express();
    const expressEtag = app.get('etag fn') as (body: Buffer) => string;
    expect(weakEtag(bytes.length, sha1 as string)).toBe(expressEtag(bytes));
  });
});

describe('JsonText members', () => {
  const definition = {
    general: { name: 'Window \u00e9' },
    questions: [{ key: 'w', type: 'integer' }],
  };
  const text = () => new JsonText(Buffer.from(JSON.stringify(definition), 'utf8'));

  it('are copied into the answer as they are, at any depth', async () => {
    const value = {
      data: { id: 1, definition: text(), nested: [{ deep: [text()] }] },
      meta: text(),
    };
    const expected = JSON.stringify({
      data: { id: 1, definition, nested: [{ deep: [definition] }] },
      meta: definition,
    });
    expect(await stringifyInSlices(value, noPause)).toBe(expected);
    // Any other serializer gets the same JSON (toJSON parses the text).
    expect(JSON.stringify(value)).toBe(expected);
  });
});
