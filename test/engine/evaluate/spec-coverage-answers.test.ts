/**
 * docs/model-format.md rule-by-rule coverage (part 4): answers, validity period,
 * translation, images, fingerprint.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import { compileOk, evaluate, model, question } from '../helpers.js';

const compiled = compileOk(
  model({
    questions: [
      { key: 'tenth', type: 'number', label: 'T', step: 0.1 },
      { key: 'quarter', type: 'number', label: 'Q', min: 0.1, max: 1.1, step: 0.25 },
      { key: 'count', type: 'integer', label: 'C', step: 5 },
      { key: 'bounded', type: 'integer', label: 'B', min: -3, max: 3 },
      { key: 'flag', type: 'boolean', label: 'F' },
      { key: 'memo', type: 'text', label: 'M' },
      {
        key: 'color',
        type: 'choice',
        label: 'Co',
        options: [
          { key: 'red', label: 'R' },
          { key: 'blue', label: 'B' },
        ],
      },
      {
        key: 'extras',
        type: 'multi_choice',
        label: 'E',
        min_selected: 2,
        max_selected: 2,
        options: ['a', 'b', 'c'].map((key) => ({ key, label: key })),
      },
      {
        key: 'must',
        type: 'multi_choice',
        label: 'Mu',
        required: true,
        options: [{ key: 'x', label: 'x' }],
      },
    ],
  }),
);
const base = { must: ['x'] };
const problems = (values: Record<string, unknown>) =>
  evaluate(compiled, { ...base, ...values }).errors.map((e) => [e.code, e.path]);

describe('answers', () => {
  it('number off step, measured with exact decimals (step 0.1: 0.3 is valid)', () => {
    expect(problems({ tenth: 0.3 })).toEqual([]);
    expect(problems({ tenth: -0.3 })).toEqual([]);
    expect(problems({ tenth: 12.7 })).toEqual([]);
    expect(problems({ tenth: 0.35 })).toEqual([['off_step', 'questions.tenth.values[0]']]);
    // step 0.25 from min 0.1: 0.1, 0.35, 0.6, 0.85, 1.1
    expect(problems({ quarter: 0.6 })).toEqual([]);
    expect(problems({ quarter: 1.1 })).toEqual([]);
    expect(problems({ quarter: 0.5 })).toEqual([['off_step', 'questions.quarter.values[0]']]);
    expect(problems({ count: -15 })).toEqual([]);
    expect(problems({ count: 12 })).toEqual([['off_step', 'questions.count.values[0]']]);
  });

  it('min and max are inclusive; out of range is an error at the value', () => {
    expect(problems({ bounded: -3 })).toEqual([]);
    expect(problems({ bounded: 3 })).toEqual([]);
    expect(problems({ bounded: -4 })).toEqual([['out_of_range', 'questions.bounded.values[0]']]);
    expect(problems({ quarter: 1.35 })).toEqual([['out_of_range', 'questions.quarter.values[0]']]);
  });

  it('a value of the wrong type for each question type', () => {
    const wrong: Array<[string, unknown]> = [
      ['tenth', '0.3'],
      ['tenth', true],
      ['tenth', null],
      ['count', 2.5],
      ['count', '5'],
      ['flag', 'true'],
      ['flag', 1],
      ['memo', 5],
      ['memo', null],
      ['color', 1],
      ['color', ['red']],
      ['extras', [1]],
    ];
    for (const [key, value] of wrong) {
      const result = evaluateConfiguration(compiled, {
        modelId: 1,
        versionNumber: 1,
        questions: { must: { values: ['x'] }, [key]: { values: [value] } },
      });
      expect(
        result.errors.map((e) => [e.code, e.path]),
        `${key} = ${JSON.stringify(value)}`,
      ).toEqual([['wrong_type', `questions.${key}.values[0]`]]);
    }
  });

  it('multi_choice: min/max_selected, [] is unanswered, a required [] is missing', () => {
    expect(problems({ extras: ['a', 'b'] })).toEqual([]);
    expect(problems({ extras: ['a'] })).toEqual([['too_few_selected', 'questions.extras']]);
    expect(problems({ extras: ['a', 'b', 'c'] })).toEqual([
      ['too_many_selected', 'questions.extras'],
    ]);
    expect(problems({ extras: [] })).toEqual([]);
    expect(problems({ must: [] })).toEqual([['required', 'questions.must']]);
    expect(question(evaluate(compiled, { ...base, extras: [] }), 'extras')).toMatchObject({
      values: [],
      source: 'none',
    });
  });

  it('text max_length defaults to 1000 characters (code points)', () => {
    expect(problems({ memo: '😀'.repeat(1000) })).toEqual([]);
    expect(problems({ memo: '😀'.repeat(1001) })).toEqual([
      ['too_long', 'questions.memo.values[0]'],
    ]);
  });

  it('reports every problem of a request, each with its path', () => {
    expect(
      problems({
        nope: 1,
        tenth: 0.35,
        bounded: 9,
        color: 'green',
        extras: ['a'],
        flag: 'yes',
        must: [],
      }).sort(),
    ).toEqual(
      [
        ['unknown_question', 'questions.nope'],
        ['wrong_type', 'questions.flag.values[0]'],
        ['unknown_option', 'questions.color.values[0]'],
        ['off_step', 'questions.tenth.values[0]'],
        ['out_of_range', 'questions.bounded.values[0]'],
        ['too_few_selected', 'questions.extras'],
        ['required', 'questions.must'],
      ].sort(),
    );
  });
});

describe('general.valid_from / valid_until', () => {
  const dated = compileOk({
    general: { name: 'X', valid_from: '2026-03-01', valid_until: '2026-03-31' },
  });
  const at = (iso: string) =>
    evaluateConfiguration(dated, {
      modelId: 1,
      versionNumber: 1,
      questions: {},
      now: new Date(iso),
    });

  it('outside the dates the line is not accepted; inside it is', () => {
    expect(at('2026-02-28T23:59:59.999Z').valid).toBe(false);
    expect(at('2026-03-01T00:00:00.000Z').valid).toBe(true);
    expect(at('2026-03-31T23:59:59.999Z').valid).toBe(true);
    const late = at('2026-04-01T00:00:00.000Z');
    expect(late.valid).toBe(false);
    expect(late.errors.map((e) => [e.code, e.path])).toEqual([
      ['model_not_valid', 'general.valid_until'],
    ]);
    // the line is still computed and shows the dates
    expect(late.line.general).toMatchObject({
      valid_from: '2026-03-01',
      valid_until: '2026-03-31',
    });
  });
});

describe('translation: requested language → default_language → model text', () => {
  const translated = compileOk(
    model({
      general: { name: 'Window', default_language: 'en' },
      questions: [
        {
          key: 'frame',
          type: 'choice',
          label: 'Frame',
          options: [
            { key: 'alu', label: 'Aluminium' },
            { key: 'pvc', label: 'PVC' },
          ],
        },
      ],
      rules: [{ key: 'max_pvc_width', assert: 'true', message: 'Too wide' }],
      bom_items: [{ key: 'glass', sku: 'G', description: 'Glass' }],
      translation: {
        en: { 'questions.frame.label': 'Frame type', 'rules.max_pvc_width.message': 'Too wide!' },
        nl: {
          'general.name': 'Raam',
          'questions.frame.options.alu.label': 'Alu (nl)',
          'bom_items.glass.description': 'Glas',
        },
      },
    }),
  );

  it('uses each level of the fallback and lists the missing paths of the line', () => {
    const result = evaluate(translated, {}, { languageCode: 'nl' });
    expect(result.line.general.name).toBe('Raam');
    expect(question(result, 'frame').label).toBe('Frame type'); // default language
    expect(question(result, 'frame').options?.map((o) => o.label)).toEqual(['Alu (nl)', 'PVC']);
    expect(result.line.rules[0].message).toBe('Too wide!'); // default language
    expect(result.line.bom_items[0].description).toBe('Glas');
    expect(result.line.translation).toEqual({
      language: 'nl',
      fallback_used: true,
      missing: [
        'questions.frame.label',
        'questions.frame.options.pvc.label',
        'rules.max_pvc_width.message',
      ],
    });
  });
});

describe('images', () => {
  it('only those whose `when` holds, ordered by layer (default 0), list order within a layer', () => {
    const compiled2 = compileOk(
      model({
        questions: [{ key: 'n', type: 'integer', label: 'N' }],
        images: [
          { key: 'c', src: 'c.png', layer: 5 },
          { key: 'b', src: 'b.png', when: 'n > 1' },
          { key: 'a', src: 'a.png', layer: -2, when: 'n > 5' },
          { key: 'd', src: 'https://x.example/d.png', alt: 'D' },
        ],
      }),
    );
    const keys = (n: number) => evaluate(compiled2, { n }).line.images.map((i) => [i.key, i.layer]);
    expect(keys(3)).toEqual([
      ['b', 0],
      ['d', 0],
      ['c', 5],
    ]);
    expect(keys(9)).toEqual([
      ['a', -2],
      ['b', 0],
      ['d', 0],
      ['c', 5],
    ]);
  });
});

describe('fingerprint', () => {
  const simple = compileOk(
    model({
      questions: [
        { key: 'a', type: 'integer', label: 'A' },
        { key: 'b', type: 'text', label: 'B' },
      ],
    }),
  );
  const fp = (questions: unknown, languageCode?: string) =>
    evaluateConfiguration(simple, { modelId: 7, versionNumber: 3, questions, languageCode }).line
      .cache.fingerprint;

  it('is the documented sha256 of [model id, version, sorted answers, language]', () => {
    const expected = createHash('sha256')
      .update(JSON.stringify([7, 3, { a: { values: [1] }, b: { values: ['x'] } }, 'en']))
      .digest('hex');
    expect(fp({ b: { values: ['x'] }, a: { values: [1] } })).toBe(expected);
    expect(fp({ a: { values: [1] }, b: { values: ['x'] } })).toBe(expected);
  });

  it('is deterministic across compiles, and differs per language and per answer', () => {
    const again = compileOk(
      model({
        questions: [
          { key: 'a', type: 'integer', label: 'A' },
          { key: 'b', type: 'text', label: 'B' },
        ],
      }),
    );
    const answersOf = { a: { values: [1] } };
    expect(
      evaluateConfiguration(again, { modelId: 7, versionNumber: 3, questions: answersOf }).line
        .cache.fingerprint,
    ).toBe(fp(answersOf));
    expect(fp(answersOf, 'nl')).not.toBe(fp(answersOf, 'de'));
    expect(fp(answersOf, 'nl')).not.toBe(fp(answersOf));
    expect(fp({ a: { values: [2] } })).not.toBe(fp(answersOf));
  });
});
