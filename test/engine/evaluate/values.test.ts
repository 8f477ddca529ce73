import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model, question } from '../helpers.js';

const options = (...keys: string[]) => keys.map((key) => ({ key, label: key.toUpperCase() }));

describe('defaults, triggers and visibility', () => {
  const compiled = compileOk(
    model({
      questions: [
        { key: 'size', type: 'integer', label: 'Size' },
        {
          key: 'glazing',
          type: 'choice',
          label: 'Glazing',
          options: options('double', 'triple', 'quad'),
          default: 'double',
        },
        { key: 'color', type: 'choice', label: 'Color', options: options('white', 'black', 'red') },
        { key: 'count', type: 'integer', label: 'Count', default_expr: 'size > 10 ? 3 : 1' },
        { key: 'ratio', type: 'number', label: 'Ratio', default_expr: 'size' },
        {
          key: 'extras',
          type: 'multi_choice',
          label: 'Extras',
          options: options('x', 'y'),
          default: ['x'],
        },
        {
          key: 'secret',
          type: 'text',
          label: 'Secret',
          visible_if: 'size > 100',
          default: 'hidden default',
        },
      ],
      triggers: [
        { key: 'big', when: 'size > 10', set: { glazing: 'triple', color: 'black' } },
        { key: 'huge', when: 'size > 20', set: { glazing: 'quad' } },
        {
          key: 'computed',
          when: 'size > 30',
          set: { color: { expr: "size > 40 ? 'red' : 'white'" } },
        },
      ],
    }),
  );

  it('uses literal defaults and default_expr (int → double for number)', () => {
    const result = evaluate(compiled, { size: 5 });
    expect(question(result, 'glazing')).toMatchObject({ values: ['double'], source: 'default' });
    expect(question(result, 'count')).toMatchObject({ values: [1], source: 'default' });
    expect(question(result, 'ratio')).toMatchObject({ values: [5], source: 'default' });
    expect(question(result, 'extras')).toMatchObject({ values: ['x'], source: 'default' });
    expect(question(result, 'color')).toMatchObject({ values: [], source: 'none' });
  });

  it('a default_expr that is unknown leaves the question unanswered', () => {
    const result = evaluate(compiled, {});
    expect(question(result, 'count')).toMatchObject({ values: [], source: 'none' });
  });

  it('a trigger replaces a default and fills an unanswered question', () => {
    const result = evaluate(compiled, { size: 15 });
    expect(question(result, 'glazing')).toMatchObject({ values: ['triple'], source: 'trigger' });
    expect(question(result, 'color')).toMatchObject({ values: ['black'], source: 'trigger' });
    expect(result.line.triggers[0]).toEqual({
      key: 'big',
      fired: true,
      set: { glazing: 'triple', color: 'black' },
    });
  });

  it('when several triggers set a question, the last one in the list that fires wins', () => {
    const result = evaluate(compiled, { size: 45 });
    expect(question(result, 'glazing')).toMatchObject({ values: ['quad'], source: 'trigger' });
    expect(question(result, 'color')).toMatchObject({ values: ['red'], source: 'trigger' });
    // only what took effect is reported under `set`
    expect(result.line.triggers.map((t) => [t.key, t.fired, t.set])).toEqual([
      ['big', true, {}],
      ['huge', true, { glazing: 'quad' }],
      ['computed', true, { color: 'red' }],
    ]);
  });

  it('a trigger never overrides the user (user > trigger > default)', () => {
    const result = evaluate(compiled, { size: 45, glazing: 'double', color: 'white' });
    expect(question(result, 'glazing')).toMatchObject({ values: ['double'], source: 'user' });
    expect(question(result, 'color')).toMatchObject({ values: ['white'], source: 'user' });
    expect(result.line.triggers.every((t) => t.fired && Object.keys(t.set).length === 0)).toBe(
      true,
    );
  });

  it('a hidden question is null: its answer is discarded and reported, its default unused', () => {
    const result = evaluate(compiled, { size: 5, secret: 'abc' });
    expect(question(result, 'secret')).toMatchObject({
      visible: false,
      values: [],
      source: 'none',
      discarded: ['abc'],
    });
    const shown = evaluate(compiled, { size: 150 });
    expect(question(shown, 'secret')).toMatchObject({
      visible: true,
      values: ['hidden default'],
      source: 'default',
      discarded: [],
    });
  });

  it('a trigger runs before every expression that reads the question it sets', () => {
    const chained = compileOk(
      model({
        questions: [
          { key: 'a', type: 'integer', label: 'A' },
          {
            key: 'mode',
            type: 'choice',
            label: 'M',
            options: options('low', 'high'),
            default: 'low',
          },
          { key: 'detail', type: 'text', label: 'D', visible_if: "mode == 'high'" },
        ],
        variables: [{ key: 'is_high', expr: "mode == 'high'" }],
        triggers: [{ key: 'raise', when: 'a > 1', set: { mode: 'high' } }],
      }),
    );
    const result = evaluate(chained, { a: 2, detail: 'kept' });
    expect(result.line.variables.is_high).toBe(true);
    expect(question(result, 'detail')).toMatchObject({ visible: true, values: ['kept'] });
  });

  it('a trigger expression that yields an unusable value is a warning and sets nothing', () => {
    const bad = compileOk(
      model({
        questions: [
          { key: 'a', type: 'integer', label: 'A' },
          { key: 'pick', type: 'choice', label: 'P', options: options('x', 'y') },
        ],
        triggers: [{ key: 't', when: 'a > 0', set: { pick: { expr: "'zzz'" } } }],
      }),
    );
    const result = evaluate(bad, { a: 1 });
    expect(question(result, 'pick')).toMatchObject({ values: [], source: 'none' });
    expect(result.warnings.map((w) => [w.code, w.path])).toEqual([
      ['invalid_trigger_value', 'triggers.t'],
    ]);
  });
});
