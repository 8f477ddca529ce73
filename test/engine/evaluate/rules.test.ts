import { describe, expect, it } from 'vitest';
import { compileOk, evaluate, model, question, rule } from '../helpers.js';

const choice = (key: string, keys: string[], extra: Record<string, unknown> = {}) => ({
  key,
  type: 'choice',
  label: key,
  options: keys.map((k) => ({ key: k, label: k })),
  ...extra,
});

describe('rules', () => {
  const compiled = compileOk(
    model({
      questions: [{ key: 'w', type: 'integer', label: 'W' }, choice('kind', ['a', 'b'])],
      rules: [
        { key: 'limit', assert: 'w <= 100', message: 'Too wide' },
        { key: 'soft', severity: 'warning', assert: 'w <= 50', message: 'Rather wide' },
        { key: 'only_a', when: "kind == 'a'", assert: 'w > 10', message: 'A needs more than 10' },
      ],
      translation: { nl: { 'rules.limit.message': 'Te breed' } },
    }),
  );

  it('passed, failed, skipped and pending', () => {
    const result = evaluate(compiled, { w: 5, kind: 'b' });
    expect(result.line.rules.map((r) => [r.key, r.status])).toEqual([
      ['limit', 'passed'],
      ['soft', 'passed'],
      ['only_a', 'skipped'],
    ]);
    const pending = evaluate(compiled, { kind: 'a' });
    expect(pending.line.rules.map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    expect(pending.valid).toBe(true);
  });

  it('a failed error rule is an error at rules.<key> with its (translated) message', () => {
    const result = evaluate(compiled, { w: 120, kind: 'a' }, { languageCode: 'nl' });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      { code: 'rule_failed', message: 'Te breed', path: 'rules.limit' },
    ]);
    expect(rule(result, 'limit')).toEqual({
      key: 'limit',
      status: 'failed',
      severity: 'error',
      message: 'Te breed',
    });
  });

  it('a failed warning rule is a warning and keeps the line valid', () => {
    const result = evaluate(compiled, { w: 70 });
    expect(result.valid).toBe(true);
    expect(result.warnings).toEqual([
      { code: 'rule_failed', message: 'Rather wide', path: 'rules.soft' },
    ]);
  });
});

describe('compatibility tables (allowed)', () => {
  const compiled = compileOk(
    model({
      questions: [
        choice('frame', ['pvc', 'alu', 'wood']),
        choice('color', ['white', 'grey', 'oak']),
        { key: 'thick', type: 'integer', label: 'T' },
        choice('finish', ['matt', 'gloss'], { visible_if: "frame == 'wood'" }),
      ],
      rules: [
        {
          key: 'frame_colors',
          message: 'Colour not made for this frame',
          allowed: {
            columns: ['frame', 'color'],
            rows: [
              ['pvc', 'white'],
              ['pvc', 'grey'],
              ['alu', 'white'],
              ['wood', 'oak'],
            ],
          },
        },
        {
          key: 'thickness',
          when: 'thick > 0',
          message: 'Thickness not available',
          allowed: {
            columns: ['frame', 'thick'],
            rows: [
              ['alu', 60],
              ['wood', 68],
            ],
          },
        },
        {
          key: 'finishes',
          message: 'Finish',
          // gloss only with oak
          allowed: {
            columns: ['color', 'finish'],
            rows: [
              ['white', 'matt'],
              ['grey', 'matt'],
              ['oak', 'matt'],
              ['oak', 'gloss'],
            ],
          },
        },
      ],
    }),
  );
  const options = (result: ReturnType<typeof evaluate>, key: string) =>
    question(result, key).options?.map((o) => [o.key, o.available, o.unavailable_because]);

  it('unanswered columns match anything: every option stays available', () => {
    const result = evaluate(compiled, {});
    expect(rule(result, 'frame_colors').status).toBe('passed');
    expect(question(result, 'frame').options?.every((o) => o.available)).toBe(true);
    expect(question(result, 'color').options?.every((o) => o.available)).toBe(true);
  });

  it('options that match no row compatible with the other answered columns are unavailable, naming the rule', () => {
    const result = evaluate(compiled, { frame: 'alu' });
    expect(options(result, 'color')).toEqual([
      ['white', true, []],
      ['grey', false, ['frame_colors']],
      ['oak', false, ['frame_colors']],
    ]);
    // the frame column itself: every frame has a row compatible with "color unanswered"
    expect(question(result, 'frame').options?.every((o) => o.available)).toBe(true);
  });

  it('a row matching all answered columns passes; none → the rule fails and the choice is an error', () => {
    expect(evaluate(compiled, { frame: 'pvc', color: 'grey' }).valid).toBe(true);
    const result = evaluate(compiled, { frame: 'pvc', color: 'oak' });
    expect(rule(result, 'frame_colors').status).toBe('failed');
    // Issue #32: one cause: a conflict on each answer, both naming both answers and the
    // table (no option_unavailable per answer, no rule_failed for the same table).
    const conflict = {
      code: 'conflict',
      answers: [
        { question: 'frame', values: ['pvc'] },
        { question: 'color', values: ['oak'] },
      ],
      rules: ['frame_colors'],
    };
    expect(result.errors).toEqual([
      expect.objectContaining({ ...conflict, path: 'questions.frame' }),
      expect.objectContaining({ ...conflict, path: 'questions.color' }),
    ]);
    expect(result.errors[0].message).toContain('Colour not made for this frame');
    expect(options(result, 'frame')).toEqual([
      ['pvc', false, ['frame_colors']],
      ['alu', false, ['frame_colors']],
      ['wood', true, []],
    ]);
  });

  it('integer columns compare by value; a table restricts only while its rule applies', () => {
    expect(
      rule(evaluate(compiled, { frame: 'alu', color: 'white', thick: 60 }), 'thickness').status,
    ).toBe('passed');
    expect(
      rule(evaluate(compiled, { frame: 'alu', color: 'white', thick: 68 }), 'thickness').status,
    ).toBe('failed');
    expect(
      rule(evaluate(compiled, { frame: 'pvc', color: 'white', thick: 0 }), 'thickness').status,
    ).toBe('skipped');
    // when unknown (thick unanswered) → pending, and the table restricts nothing
    const pending = evaluate(compiled, { frame: 'pvc' });
    expect(rule(pending, 'thickness').status).toBe('pending');
    expect(question(pending, 'frame').options?.every((o) => o.available)).toBe(true);
  });

  it('a hidden column counts as unanswered', () => {
    // finish is hidden for pvc: its answer is discarded and does not restrict the colour
    const result = evaluate(compiled, { frame: 'pvc', color: 'white', finish: 'gloss' });
    expect(rule(result, 'finishes').status).toBe('passed');
    expect(question(result, 'finish').discarded).toEqual(['gloss']);
    // visible for wood: white + gloss has no row
    const wood = evaluate(compiled, { frame: 'wood', color: 'oak', finish: 'gloss' });
    expect(rule(wood, 'finishes').status).toBe('passed');
    expect(options(wood, 'color')).toEqual([
      ['white', false, ['frame_colors', 'finishes']],
      ['grey', false, ['frame_colors', 'finishes']],
      ['oak', true, []],
    ]);
  });

  it('an option can be unavailable for several reasons', () => {
    const several = compileOk(
      model({
        questions: [
          choice('a', ['x', 'y']),
          choice('b', ['p', 'q'], {
            options: [
              { key: 'p', label: 'p' },
              { key: 'q', label: 'q', available_if: "a == 'y'" },
            ],
          }),
        ],
        rules: [
          {
            key: 't',
            message: 'm',
            allowed: {
              columns: ['a', 'b'],
              rows: [
                ['x', 'p'],
                ['y', 'q'],
              ],
            },
          },
        ],
      }),
    );
    const result = evaluate(several, { a: 'x' });
    expect(question(result, 'b').options?.map((o) => o.unavailable_because)).toEqual([
      [],
      ['t', 'q'],
    ]);
  });
});
