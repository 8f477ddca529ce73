import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { compileDocument, evaluate } from '../../src/engine/index.js';
import type { Slicing } from '../../src/common/event-loop/slice-clock.js';
import { windowDocument } from '../engine/helpers.js';
import { serializeInSlices } from '../../src/common/event-loop/sliced-json.js';
import { DeferredJson } from '../../src/common/event-loop/deferred-json.js';
import { weakEtag } from '../../src/common/http/read-etag.js';
import { JsonText } from '../../src/common/http/json-text.js';
import { prng as seeded } from '../support/prng.js';

/** serializeInSlices of an answer held whole (no bound to stream past). */
async function held(value: unknown, slicing: Slicing, digest = false) {
  const answer = await serializeInSlices(value, slicing, { digest });
  if ('stream' in answer) throw new Error('streamed without a bound');
  return answer;
}

const stringifyInSlices = async (value: unknown, slicing: Slicing): Promise<string> =>
  (await held(value, slicing)).bytes.toString('utf8');

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
    const model = compileDocument(windowDocument());
    if (!model.ok) throw new Error('the window example compiles');
    for (const questions of [{}, { width: { values: [2600] }, frame: { values: ['wood'] } }]) {
      const line = evaluate(model.model, {
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
    const model = compileDocument(windowDocument());
    if (!model.ok) throw new Error('the window example compiles');
    for (const view of ['full', 'compact'] as const) {
      const lines = [{}, { width: { values: [2600] } }, { frame: { values: ['wood'] } }].map(
        (questions, id) => ({
          id,
          ...evaluate(model.model, { modelId: 1, versionNumber: 1, questions, view }).line,
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

describe('serializeInSlices with a digest', () => {
  const large = {
    data: { items: Array.from({ length: 5_000 }, (_, i) => ({ key: `k${i}`, n: i })) },
  };
  const sha1 = (bytes: Buffer | string) => createHash('sha1').update(bytes).digest('base64');

  it('hashes the bytes when asked, large (in the same slices) or small', async () => {
    const { bytes, digest } = await held(large, noPause, true);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(large));
    expect(bytes.length).toBeGreaterThan(32 * 1024);
    expect(digest).toEqual({ length: bytes.length, sha1: sha1(bytes) });
    expect((await held(large, noPause, false)).digest).toBeUndefined();
    const small = await held({ data: 1 }, noPause, true);
    expect(small.digest).toEqual({ length: small.bytes.length, sha1: sha1(small.bytes) });
  });

  it('gives the ETag express gives the same bytes (weakEtag)', async () => {
    const expressEtag = express().get('etag fn') as (body: Buffer) => string;
    for (const value of [large, { data: 1 }]) {
      const { bytes, digest } = await held(value, noPause, true);
      expect(weakEtag(digest!.length, digest!.sha1)).toBe(expressEtag(bytes));
    }
  });

  it('leaves out what the engine measured: a line evaluated twice has one digest', async () => {
    const model = compileDocument(windowDocument());
    if (!model.ok) throw new Error('the window example compiles');
    const evaluated = (questions: Record<string, unknown>) =>
      evaluate(model.model, { modelId: 1, versionNumber: 1, questions }).line;
    const answers = { width: { values: [2600] } };
    const [first, second] = [evaluated(answers), evaluated(answers)];
    // Different measurements, whatever the clock gave.
    first.cache.evaluated_in_ms = 0.25;
    second.cache.evaluated_in_ms = 12.5;
    const envelopeOf = (lines: unknown[]) => ({ code: 200, data: { lines }, errors: [] });
    const [one, two] = await Promise.all(
      [first, second].map((line) => held(envelopeOf([line]), noPause, true)),
    );
    expect(one.bytes.toString('utf8')).toBe(JSON.stringify(envelopeOf([first])));
    expect(one.bytes.equals(two.bytes)).toBe(false);
    expect(two.digest).toEqual(one.digest);
    // The digest is that of the text without the measurement's value.
    const without = JSON.stringify(envelopeOf([first])).replace(
      '"evaluated_in_ms":0.25',
      '"evaluated_in_ms":',
    );
    expect(one.digest).toEqual({ length: Buffer.byteLength(without), sha1: sha1(without) });
    // Anything else in the line counts: another answer, another digest.
    const other = await held(envelopeOf([evaluated({ width: { values: [2700] } })]), noPause, true);
    expect(other.digest?.sha1).not.toBe(one.digest?.sha1);
    // The same member of a line read back from storage (not made here) is content.
    const stored = JSON.parse(JSON.stringify(first)) as unknown;
    const read = await held(envelopeOf([stored]), noPause, true);
    expect(read.digest?.sha1).toBe(sha1(read.bytes));
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

/** `count` deferred elements (with `pad`); records how many were being made at once. */
function deferredList(count: number, pad = '') {
  const log = { made: 0, busy: 0, mostBusy: 0 };
  const values = Array.from({ length: count }, (_, i) => ({ id: i, items: [i, `é${i}`], pad }));
  const list = values.map(
    (value) =>
      new DeferredJson(async () => {
        log.busy++;
        log.mostBusy = Math.max(log.mostBusy, log.busy);
        await new Promise((done) => setImmediate(done));
        log.busy--;
        log.made++;
        return value;
      }),
  );
  return { values, list, log };
}

describe('DeferredJson elements', () => {
  it('are made one at a time as they are reached, and written as their values', async () => {
    const { values, list, log } = deferredList(70);
    const envelope = { code: 200, data: { before: 1, lines: list, after: [1, 2] }, errors: [] };
    const text = await stringifyInSlices(envelope, noPause);
    expect(text).toBe(JSON.stringify({ ...envelope, data: { ...envelope.data, lines: values } }));
    expect(log).toEqual({ made: 70, busy: 0, mostBusy: 1 });
  });

  it('sit beside ordinary elements, and cart lines, in one list', async () => {
    const model = compileDocument(windowDocument());
    if (!model.ok) throw new Error('the window example compiles');
    const line = evaluate(model.model, {
      modelId: 1,
      versionNumber: 1,
      questions: {},
    }).line;
    const later = new DeferredJson(() => Promise.resolve({ ...line, id: 2 }));
    const lines = [{ id: 0 }, { ...line, id: 1 }, later, 'x', later];
    const text = await stringifyInSlices({ data: { lines } }, noPause);
    const resolved = [{ id: 0 }, { ...line, id: 1 }, { ...line, id: 2 }, 'x', { ...line, id: 2 }];
    expect(text).toBe(JSON.stringify({ data: { lines: resolved } }));
  });

  it('are written in any array the serializer opens: a page of items in `data` too', async () => {
    const { values, list, log } = deferredList(5);
    const page = {
      code: 200,
      data: [list[0], { plain: true }, list[1], [list[2], list[3]], list[4]],
    };
    const resolved = [values[0], { plain: true }, values[1], [values[2], values[3]], values[4]];
    expect(await stringifyInSlices(page, noPause)).toBe(
      JSON.stringify({ ...page, data: resolved }),
    );
    expect(log.mostBusy).toBe(1);
  });

  it('are refused by JSON.stringify (nothing else waits for them)', () => {
    expect(() => JSON.stringify([new DeferredJson(() => Promise.resolve(1))])).toThrow(
      /serializeInSlices only/,
    );
  });
});

describe('serializeInSlices: large answers streamed', () => {
  const large = {
    data: { items: Array.from({ length: 20_000 }, (_, i) => ({ key: `k${i}`, n: i })) },
  };

  const collect = async (stream: Readable): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  it('holds an answer up to the bound whole, with its digest', async () => {
    const answer = await serializeInSlices(large, noPause, { digest: true, streamAbove: 2 ** 30 });
    if ('stream' in answer) throw new Error('held whole');
    expect(answer.bytes.toString('utf8')).toBe(JSON.stringify(large));
    expect(answer.digest?.length).toBe(answer.bytes.length);
  });

  it('streams one past it: the same bytes, written as they are read', async () => {
    const answer = await serializeInSlices(large, noPause, {
      digest: true,
      streamAbove: 64 * 1024,
    });
    if (!('stream' in answer)) throw new Error('streamed');
    expect(await collect(answer.stream)).toBe(JSON.stringify(large));
  });

  it('fails the stream when an element fails after the first bytes (never a whole-looking end)', async () => {
    const { list } = deferredList(40, 'r'.repeat(2000));
    list[30] = new DeferredJson(() => Promise.reject(new Error('line 30 failed')));
    const answer = await serializeInSlices({ data: { lines: list } }, noPause, {
      streamAbove: 16 * 1024,
    });
    if (!('stream' in answer)) throw new Error('streamed');
    await expect(collect(answer.stream)).rejects.toThrow('line 30 failed');
    // Held whole, the same failure is the caller's error (an error answer).
    await expect(held({ data: { lines: list } }, noPause)).rejects.toThrow('line 30 failed');
  });

  it('makes deferred elements only as the stream is read, and stops when it is dropped', async () => {
    const options = { digest: false, streamAbove: 16 * 1024 };
    const read = deferredList(400, 'p'.repeat(2000));
    const answer = await serializeInSlices({ data: { lines: read.list } }, noPause, options);
    if (!('stream' in answer)) throw new Error('streamed');
    // Unread, it waits: the elements made are what the buffers hold, far from all.
    await new Promise((done) => setTimeout(done, 50));
    expect(read.log.made).toBeLessThan(100);
    const text = await collect(answer.stream);
    expect(text).toBe(JSON.stringify({ data: { lines: read.values } }));
    expect(read.log).toEqual({ made: 400, busy: 0, mostBusy: 1 });

    const dropped = deferredList(400, 'q'.repeat(2000));
    const early = await serializeInSlices({ data: { lines: dropped.list } }, noPause, options);
    if (!('stream' in early)) throw new Error('streamed');
    for await (const chunk of early.stream) {
      expect((chunk as Buffer).length).toBeGreaterThan(0);
      break; // destroys the stream
    }
    await new Promise((done) => setTimeout(done, 50));
    const madeThen = dropped.log.made;
    await new Promise((done) => setTimeout(done, 50));
    expect(dropped.log.made).toBe(madeThen);
    expect(madeThen).toBeLessThan(100);
  });
});
