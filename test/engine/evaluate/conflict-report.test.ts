/**
 * Issue #32 "errors a person can act on": conflicting answers are one `conflict` problem
 * naming every answer of the minimal set and the rules through which they conflict; the
 * same cause is not reported again; options that no answer could make available while
 * the other answers conflict say `blocked_by_conflict`.
 */
import { describe, expect, it } from 'vitest';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import { answers, choice, compileOk, evaluate, model, question, rule } from '../helpers.js';

const table = (key: string, columns: string[], rows: unknown[][], message = key) => ({
  key,
  message,
  allowed: { columns, rows },
});

describe('one problem per conflict', () => {
  // frame → wheel ← tyre: frame and tyre conflict through wheel (required, unanswered).
  const chain = compileOk(
    model({
      questions: [
        choice('frame', ['road', 'mtb']),
        choice('wheel', ['w26', 'w29'], { required: true }),
        { key: 'size', type: 'integer', label: 'S' },
        choice('tyre', ['slick', 'knobby']),
        choice('color', ['red', 'black']),
        choice('finish', ['raw', 'painted']),
        { key: 'extras', type: 'multi_choice', label: 'E', options: [{ key: 'bell', label: 'B' }] },
      ],
      rules: [
        table(
          'frame_wheel',
          ['frame', 'wheel'],
          [
            ['road', 'w26'],
            ['mtb', 'w29'],
          ],
        ),
        table(
          'tyre_wheel',
          ['tyre', 'wheel'],
          [
            ['slick', 'w26'],
            ['knobby', 'w29'],
          ],
        ),
        table(
          'raw_only_steel',
          ['color', 'finish'],
          [
            ['red', 'painted'],
            ['black', 'painted'],
            ['red', 'raw'],
          ],
        ),
        { key: 'small_frames', message: 'At most 60 cm', assert: 'size <= 60' },
      ],
    }),
  );

  it('names both answers and the rules that join them through an unanswered question', () => {
    const result = evaluate(chain, { frame: 'mtb', tyre: 'slick' });
    // One cause: on each answer's path (the contract), the same set, rules and message.
    const conflict = {
      code: 'conflict',
      message:
        'the answers frame = "mtb", tyre = "slick" have no valid completion together ' +
        '(frame_wheel: frame_wheel; tyre_wheel: tyre_wheel); change one of them',
      answers: [
        { question: 'frame', values: ['mtb'] },
        { question: 'tyre', values: ['slick'] },
      ],
      rules: ['frame_wheel', 'tyre_wheel'],
    };
    expect(result.errors).toEqual([
      { code: 'required', message: 'wheel is required', path: 'questions.wheel' },
      { ...conflict, path: 'questions.frame' },
      { ...conflict, path: 'questions.tyre' },
    ]);
  });

  it('unrelated questions are blocked by the conflict instead of naming unrelated rules', () => {
    const request = { frame: 'mtb', tyre: 'slick', finish: 'raw' };
    const result = evaluate(chain, request);
    // black is excluded by its own table with the finish answered: that reason stays.
    expect(question(result, 'color').options?.map((o) => [o.key, o.unavailable_because])).toEqual([
      ['red', ['blocked_by_conflict']],
      ['black', ['raw_only_steel']],
    ]);
    expect(question(result, 'extras').options?.[0]).toMatchObject({
      available: false,
      unavailable_because: ['blocked_by_conflict'],
      conflicts_with: ['frame', 'tyre'],
    });
    // The conflicting questions themselves: the other answer alone decides (real reasons).
    expect(question(result, 'tyre').options?.map((o) => [o.key, o.available])).toEqual([
      ['slick', false],
      ['knobby', true],
    ]);
    expect(question(result, 'tyre').options?.[0].unavailable_because).not.toContain(
      'blocked_by_conflict',
    );
    // The compact view says the same.
    const compact = evaluateConfiguration(chain, {
      modelId: 7,
      versionNumber: 3,
      questions: answers(request),
      view: 'compact',
    });
    const color = compact.line.questions.find((q) => q.key === 'color');
    expect(color?.options).toEqual([
      {
        key: 'red',
        available: false,
        unavailable_because: ['blocked_by_conflict'],
        conflicts_with: ['frame', 'tyre'],
      },
      expect.objectContaining({ key: 'black', unavailable_because: ['raw_only_steel'] }),
    ]);
    expect(compact.errors).toEqual(result.errors);
  });

  it('another failed rule is another cause: still its own rule_failed', () => {
    const result = evaluate(chain, { frame: 'mtb', tyre: 'slick', size: 70 });
    expect(result.errors.map((e) => [e.code, e.path])).toEqual([
      ['required', 'questions.wheel'],
      ['conflict', 'questions.frame'],
      ['conflict', 'questions.tyre'],
      ['rule_failed', 'rules.small_frames'],
    ]);
    expect(rule(result, 'small_frames').status).toBe('failed');
  });

  it('without a conflict nothing is blocked', () => {
    const result = evaluate(chain, { frame: 'mtb' });
    expect(result.errors.map((e) => e.code)).toEqual(['required']);
    const reasons = result.line.questions.flatMap((q) =>
      (q.options ?? []).flatMap((o) => o.unavailable_because),
    );
    expect(reasons).not.toContain('blocked_by_conflict');
  });

  it('a multi_choice answer is named with its selection', () => {
    const compiled = compileOk(
      model({
        questions: [
          choice('frame', ['road', 'mtb']),
          {
            key: 'extras',
            type: 'multi_choice',
            label: 'E',
            options: [
              { key: 'rack', label: 'R' },
              { key: 'bell', label: 'B' },
            ],
          },
        ],
        rules: [
          {
            key: 'no_rack_on_road',
            message: 'No rack',
            assert: "!(frame == 'road' && 'rack' in extras)",
          },
        ],
      }),
    );
    const result = evaluate(compiled, { frame: 'road', extras: ['rack', 'bell'] });
    const conflict = {
      code: 'conflict',
      answers: [
        { question: 'frame', values: ['road'] },
        { question: 'extras', values: ['rack', 'bell'] },
      ],
      rules: ['no_rack_on_road'],
    };
    expect(result.errors).toEqual([
      expect.objectContaining({ ...conflict, path: 'questions.frame' }),
      expect.objectContaining({ ...conflict, path: 'questions.extras' }),
    ]);
  });
});
