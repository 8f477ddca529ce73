/**
 * docs/model-format.md rule-by-rule coverage (part 1): unknown semantics, triggers and
 * precedence, hidden questions. Each test names the rule it guards; the models are
 * tiny and built inline. (Tables: spec-coverage-tables; known bugs: spec-coverage-bugs.)
 */
import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model, question, rule, choice } from './helpers.js';

describe('unknown: a variable that reads an unknown variable, and every consumer of it', () => {
  // width unanswered → `width * 2` fails → wide2 is null → `wide2 + 1` fails → next null;
  // `big` (a bool variable) is then null, and a condition reading only `big` is unknown.
  const compiled = compileOk(
    model({
      questions: [
        { key: 'width', type: 'integer', label: 'W' },
        { key: 'shown', type: 'text', label: 'S', visible_if: 'big' },
        {
          key: 'pick',
          type: 'choice',
          label: 'P',
          options: [{ key: 'a', label: 'A', available_if: '!big' }],
        },
        { key: 'filled', type: 'text', label: 'F' },
      ],
      variables: [
        { key: 'next', expr: 'wide2 + 1' },
        { key: 'wide2', expr: 'width * 2' },
        { key: 'big', expr: 'next > 100' },
        { key: 'known', expr: 'next == null' },
      ],
      rules: [
        { key: 'gate', when: 'big', assert: 'false', message: 'm' },
        { key: 'check', assert: '!big', message: 'm' },
      ],
      triggers: [{ key: 'fill', when: 'big', set: { filled: 'yes' } }],
      bom_items: [{ key: 'b', sku: 'B', description: 'B', when: 'big', unit_price: '1.00' }],
      pricing: { adjustments: [{ key: 'adj', label: 'A', when: '!big', amount: '1.00' }] },
      images: [{ key: 'img', src: 'a.svg', when: 'big' }],
    }),
  );

  it('chains null through variables and treats a null bool as unknown everywhere', () => {
    const result = evaluate(compiled, { shown: 'x' });
    expect(result.line.variables).toEqual({ next: null, wide2: null, big: null, known: true });
    // visible_if unknown → hidden, the answer discarded
    expect(question(result, 'shown')).toMatchObject({ visible: false, discarded: ['x'] });
    // available_if unknown → available
    expect(question(result, 'pick').options?.[0]).toMatchObject({ available: true });
    // rule when unknown → pending; assert unknown → pending; still valid
    expect(rule(result, 'gate').status).toBe('pending');
    expect(rule(result, 'check').status).toBe('pending');
    expect(result.valid).toBe(true);
    // trigger / BOM / adjustment / image `when` unknown → false
    expect(result.line.triggers[0]).toMatchObject({ fired: false, set: {} });
    expect(question(result, 'filled')).toMatchObject({ values: [], source: 'none' });
    expect(result.line.bom_items).toEqual([]);
    expect(result.line.pricing.adjustments).toEqual([]);
    expect(result.line.pricing.total).toBe('0.00');
    expect(result.line.images).toEqual([]);
  });

  it('everything resolves once the chain is known (width 60 → next 121, big true)', () => {
    const result = evaluate(compiled, { width: 60, shown: 'x' });
    expect(result.line.variables).toEqual({ next: 121, wide2: 120, big: true, known: false });
    expect(question(result, 'shown')).toMatchObject({ visible: true, values: ['x'] });
    expect(question(result, 'pick').options?.[0]).toMatchObject({
      available: false,
      unavailable_because: ['a'],
    });
    expect(rule(result, 'gate').status).toBe('failed');
    expect(rule(result, 'check').status).toBe('failed');
    expect(question(result, 'filled')).toMatchObject({ values: ['yes'], source: 'trigger' });
    expect(result.line.bom_items.map((b) => b.key)).toEqual(['b']);
    expect(result.line.images.map((i) => i.key)).toEqual(['img']);
  });

  it('a warning rule with an unknown assert is pending, not a warning', () => {
    const soft = compileOk(
      model({
        questions: [{ key: 'w', type: 'integer', label: 'W' }],
        rules: [{ key: 'soft', severity: 'warning', assert: 'w < 10', message: 'm' }],
      }),
    );
    const result = evaluate(soft, {});
    expect(rule(result, 'soft')).toMatchObject({ status: 'pending', severity: 'warning' });
    expect(result.warnings).toEqual([]);
  });
});

describe('triggers: precedence user > trigger > default, ordering, last firing wins', () => {
  it('the last trigger in the list that fires wins, whatever the others do', () => {
    const compiled = compileOk(
      model({
        questions: [
          { key: 'n', type: 'integer', label: 'N' },
          choice('q', ['a', 'b', 'c', 'd', 'z'], { default: 'z' }),
        ],
        triggers: [
          { key: 't1', when: 'n > 0', set: { q: 'a' } },
          { key: 't2', when: 'n > 100', set: { q: 'b' } },
          { key: 't3', when: 'n > 1', set: { q: 'c' } },
          { key: 't4', when: 'n > 100', set: { q: 'd' } },
        ],
      }),
    );
    const result = evaluate(compiled, { n: 5 });
    expect(question(result, 'q')).toMatchObject({ values: ['c'], source: 'trigger' });
    expect(result.line.triggers.map((t) => [t.key, t.fired, t.set])).toEqual([
      ['t1', true, {}],
      ['t2', false, {}],
      ['t3', true, { q: 'c' }],
      ['t4', false, {}],
    ]);
    // only t1 fires → a; none fires → the default (source default)
    expect(question(evaluate(compiled, { n: 1 }), 'q')).toMatchObject({
      values: ['a'],
      source: 'trigger',
    });
    expect(question(evaluate(compiled, { n: 0 }), 'q')).toMatchObject({
      values: ['z'],
      source: 'default',
    });
    // the user wins over every trigger
    const user = evaluate(compiled, { n: 500, q: 'b' });
    expect(question(user, 'q')).toMatchObject({ values: ['b'], source: 'user' });
    expect(user.line.triggers.map((t) => t.set)).toEqual([{}, {}, {}, {}]);
    // `[]` is unanswered: the trigger fills it
    expect(question(evaluate(compiled, { n: 500, q: [] }), 'q')).toMatchObject({
      values: ['d'],
      source: 'trigger',
    });
  });

  it('runs before a variable that reads Q and a visible_if that reads that variable (list order reversed)', () => {
    // Declared in the worst order: the reader first, the trigger last.
    const compiled = compileOk(
      model({
        questions: [
          { key: 'detail', type: 'text', label: 'D', visible_if: 'is_high' },
          { key: 'a', type: 'integer', label: 'A' },
          choice('mode', ['low', 'high'], { default: 'low' }),
          { key: 'extra', type: 'integer', label: 'E', default_expr: "mode == 'high' ? 2 : 1" },
        ],
        variables: [{ key: 'is_high', expr: "mode == 'high'" }],
        rules: [{ key: 'r', assert: "mode == 'low'", message: 'still low', severity: 'warning' }],
        bom_items: [{ key: 'hb', sku: 'H', description: 'H', when: "mode == 'high'" }],
        triggers: [{ key: 'raise', when: 'a > 1', set: { mode: 'high' } }],
      }),
    );
    const result = evaluate(compiled, { a: 2, detail: 'kept' });
    expect(question(result, 'mode')).toMatchObject({ values: ['high'], source: 'trigger' });
    expect(result.line.variables.is_high).toBe(true);
    expect(question(result, 'detail')).toMatchObject({
      visible: true,
      values: ['kept'],
      discarded: [],
    });
    expect(question(result, 'extra')).toMatchObject({ values: [2], source: 'default' });
    expect(rule(result, 'r').status).toBe('failed');
    expect(result.line.bom_items.map((b) => b.key)).toEqual(['hb']);
    // not fired: the default stays and the detail is hidden
    const low = evaluate(compiled, { a: 1, detail: 'kept' });
    expect(question(low, 'detail')).toMatchObject({
      visible: false,
      values: [],
      discarded: ['kept'],
    });
    expect(question(low, 'extra')).toMatchObject({ values: [1] });
  });

  it('a trigger whose when reads a question set by a later-listed trigger sees the set value', () => {
    const compiled = compileOk(
      model({
        questions: [
          { key: 'n', type: 'integer', label: 'N' },
          choice('q', ['x', 'y']),
          { key: 'r', type: 'boolean', label: 'R', default: false },
        ],
        triggers: [
          { key: 'second', when: "q == 'y'", set: { r: true }, message: 'R follows Q' },
          { key: 'first', when: 'n > 3', set: { q: { expr: "n > 5 ? 'y' : 'x'" } } },
        ],
      }),
    );
    const result = evaluate(compiled, { n: 6 });
    expect(question(result, 'q')).toMatchObject({ values: ['y'], source: 'trigger' });
    expect(question(result, 'r')).toMatchObject({ values: [true], source: 'trigger' });
    expect(result.line.triggers).toEqual([
      { key: 'second', fired: true, set: { r: true }, message: 'R follows Q' },
      { key: 'first', fired: true, set: { q: 'y' } },
    ]);
    const four = evaluate(compiled, { n: 4 });
    expect(question(four, 'r')).toMatchObject({ values: [false], source: 'default' });
    expect(four.line.triggers[0].fired).toBe(false);
  });

  it('a trigger does not fill a hidden question (documented: set lists only what took effect)', () => {
    const compiled = compileOk(
      model({
        questions: [
          { key: 'on', type: 'boolean', label: 'On', default: false },
          { key: 'note', type: 'text', label: 'N', visible_if: 'on' },
        ],
        triggers: [{ key: 't', when: 'true', set: { note: 'auto' } }],
      }),
    );
    const hidden = evaluate(compiled, {});
    expect(question(hidden, 'note')).toMatchObject({ visible: false, values: [], source: 'none' });
    expect(hidden.line.triggers[0]).toEqual({ key: 't', fired: true, set: {} });
    const shown = evaluate(compiled, { on: true });
    expect(question(shown, 'note')).toMatchObject({ values: ['auto'], source: 'trigger' });
  });
});

describe('hidden questions', () => {
  const compiled = compileOk(
    model({
      questions: [
        { key: 'show', type: 'boolean', label: 'S', default: false },
        choice('finish', ['matt', 'gloss'], {
          visible_if: 'show',
          required: true,
          options: [
            { key: 'matt', label: 'M', price: '10.00' },
            { key: 'gloss', label: 'G', price: '20.00' },
          ],
        }),
        {
          key: 'parts',
          type: 'multi_choice',
          label: 'P',
          visible_if: 'show',
          default: ['p1'],
          options: [
            { key: 'p1', label: 'P1', price: '1.00' },
            { key: 'p2', label: 'P2', price: '2.00' },
          ],
        },
        { key: 'size', type: 'integer', label: 'Z', visible_if: 'show', min: 10, max: 20 },
      ],
      variables: [
        { key: 'finish_missing', expr: 'finish == null' },
        { key: 'part_count', expr: 'parts == null ? 0 : size(parts)' },
      ],
    }),
  );

  it('drops the answer, reports it in discarded, is null for expressions, and is not priced', () => {
    const result = evaluate(compiled, { finish: 'gloss', parts: ['p1', 'p2'], size: 99 });
    expect(question(result, 'finish')).toMatchObject({
      visible: false,
      values: [],
      source: 'none',
      discarded: ['gloss'],
    });
    expect(question(result, 'finish').options?.every((o) => !o.selected)).toBe(true);
    expect(question(result, 'parts')).toMatchObject({ values: [], discarded: ['p1', 'p2'] });
    expect(result.line.variables).toEqual({ finish_missing: true, part_count: 0 });
    // neither the user answers (20.00 + 3.00) nor the default p1 (1.00) are priced
    expect(result.line.pricing.options_total).toBe('0.00');
    // required but hidden is not an error; out of range but hidden is not checked
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('when visible, the same answers count: 20.00 + 1.00 + 2.00 = 23.00', () => {
    const result = evaluate(compiled, {
      show: true,
      finish: 'gloss',
      parts: ['p1', 'p2'],
      size: 15,
    });
    expect(result.line.pricing.options_total).toBe('23.00');
    expect(result.line.variables).toEqual({ finish_missing: false, part_count: 2 });
    expect(question(result, 'finish').discarded).toEqual([]);
    // and required is enforced once visible
    const missing = evaluate(compiled, { show: true });
    expect(missing.errors.map((e) => [e.code, e.path])).toEqual([['required', 'questions.finish']]);
  });

  it('a malformed answer to a hidden question is still an error (documented)', () => {
    const result = evaluate(compiled, { finish: 'chrome' });
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['unknown_option', 'questions.finish.values[0]'],
    ]);
  });
});
