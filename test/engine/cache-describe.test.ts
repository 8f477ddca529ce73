import { describe, expect, it } from 'vitest';
import { describeModel, CompiledModelCache } from '../../src/engine/work.js';
import { compileOk, doorDocument, model, windowDocument } from './helpers.js';

describe('CompiledModelCache', () => {
  const small = compileOk(model());

  it('compiles once per key', () => {
    const cache = new CompiledModelCache(2);
    let compiles = 0;
    const compile = () => {
      compiles++;
      return small;
    };
    expect(cache.getOrCompile('1:1', compile)).toBe(small);
    expect(cache.getOrCompile('1:1', compile)).toBe(small);
    expect(compiles).toBe(1);
  });

  it('evicts the least recently used entry', () => {
    const cache = new CompiledModelCache(2);
    const compiled: string[] = [];
    const get = (key: string) =>
      cache.getOrCompile(key, () => {
        compiled.push(key);
        return small;
      });
    get('a');
    get('b');
    get('a'); // a is now the most recent
    get('c'); // evicts b
    expect(cache.size).toBe(2);
    get('a');
    get('b'); // compiled again
    expect(compiled).toEqual(['a', 'b', 'c', 'b']);
  });

  it('answers get() without compiling, counting it as a use', () => {
    const cache = new CompiledModelCache(2);
    expect(cache.get('a')).toBeUndefined();
    cache.getOrCompile('a', () => small);
    cache.getOrCompile('b', () => small);
    expect(cache.get('a')).toBe(small); // a is now the most recent
    cache.getOrCompile('c', () => small); // evicts b
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(small);
    expect(cache.size).toBe(2);
  });

  it('does not cache a failed compile and rejects a bad size', () => {
    const cache = new CompiledModelCache();
    expect(() =>
      cache.getOrCompile('x', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(cache.size).toBe(0);
    expect(() => new CompiledModelCache(0)).toThrow(RangeError);
  });
});

describe('describeModel', () => {
  it('lists the questions with translated labels, options, prices and constraints', () => {
    const description = describeModel(compileOk(windowDocument()), 'nl');
    expect(description.general).toMatchObject({
      name: 'Draairaam',
      currency: 'EUR',
      code: 'WIN-CASEMENT',
    });
    expect(description.language).toBe('nl');
    expect(description.questions.map((q) => q.key)).toEqual([
      'width',
      'height',
      'frame',
      'color',
      'glazing',
      'extras',
      'engraving',
    ]);
    expect(description.questions[0]).toEqual({
      key: 'width',
      type: 'integer',
      label: 'Breedte',
      unit: 'mm',
      required: true,
      default: [],
      min: 400,
      max: 2400,
      step: 10,
    });
    expect(description.questions[2].options).toEqual([
      { key: 'pvc', label: 'PVC', price: '0.00' },
      { key: 'alu', label: 'Aluminium', price: '85.00' },
      { key: 'wood', label: 'Hout', price: '120.00' },
    ]);
    expect(description.questions[2].default).toEqual(['pvc']);
    expect(description.questions[5]).toMatchObject({ max_selected: 2 });
    expect(description.questions[5].options?.[1]).toMatchObject({
      key: 'lock',
      available_if: "frame != 'wood'",
    });
    expect(description.questions[6]).toMatchObject({
      visible_if: "frame == 'wood'",
      max_length: 20,
      required: false,
    });
  });

  it('describes expression-required questions and maps option images', () => {
    const compiled = compileOk(
      model({
        questions: [
          {
            key: 'c',
            type: 'choice',
            label: 'C',
            required: 'true',
            options: [{ key: 'x', label: 'X', image: 'img/x.png', description: 'Ex' }],
          },
        ],
      }),
    );
    const [question] = describeModel(compiled, null, { assetUrl: (p) => `/assets/${p}` }).questions;
    expect(question).toMatchObject({ required: false, required_if: 'true' });
    expect(question.options).toEqual([
      { key: 'x', label: 'X', description: 'Ex', price: '0.00', image: '/assets/img/x.png' },
    ]);
  });

  it('works for the door (fragment questions included)', () => {
    const description = describeModel(compileOk(doorDocument()));
    expect(description.questions.map((q) => [q.key, q.default])).toEqual([
      ['leaf_width', []],
      ['glass_panel', [false]],
      ['hinge_count', [2]],
      ['handle', ['lever']],
    ]);
  });
});
