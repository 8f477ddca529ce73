/**
 * docs/model-format.md "Consistency: no dead ends", rule by rule (issue #6).
 */
import { describe, expect, it } from 'vitest';
import {
  compileDocument,
  deserializeConsistency,
  serializeConsistency,
} from '../../../src/engine/work.js';
import { choice, compileOk, evaluate, model, opts, question, rule } from '../helpers.js';

const table = (key: string, columns: string[], rows: unknown[][], extra = {}) => ({
  key,
  message: key,
  allowed: { columns, rows },
  ...extra,
});
type Result = ReturnType<typeof evaluate>;
const options = (result: Result, key: string) =>
  question(result, key).options?.map((o) => [o.key, o.available, o.conflicts_with]);

/** frame × color: pvc–white or alu–oak. */
const frameColor = (extra: Record<string, unknown> = {}) =>
  model({
    questions: [choice('frame', ['pvc', 'alu']), choice('color', ['white', 'oak'])],
    rules: [
      table(
        'fc',
        ['frame', 'color'],
        [
          ['pvc', 'white'],
          ['alu', 'oak'],
        ],
      ),
    ],
    ...extra,
  });

describe('consistency: the finite part', () => {
  it('a hidden question has no value and matches every row', () => {
    const compiled = compileOk(
      model({
        questions: [
          choice('q1', ['a', 'b']),
          choice('q2', ['x', 'y'], { visible_if: "q1 == 'a'", required: true }),
          choice('q3', ['m', 'n']),
        ],
        rules: [
          table(
            't',
            ['q2', 'q3'],
            [
              ['x', 'm'],
              ['y', 'n'],
            ],
          ),
        ],
      }),
    );
    const hidden = evaluate(compiled, { q1: 'b' });
    expect(options(hidden, 'q3')).toEqual([
      ['m', true, []],
      ['n', true, []],
    ]);
    // q2 is hidden, so it can have no value: its options have no completion.
    expect(options(hidden, 'q2')).toEqual([
      ['x', false, ['q1']],
      ['y', false, ['q1']],
    ]);
    const shown = evaluate(compiled, { q1: 'a', q2: 'x' });
    expect(options(shown, 'q3')).toEqual([
      ['m', true, []],
      ['n', false, ['q2']],
    ]);
    // q1 unanswered (no value): q2 hidden, any q3; q1 = a: q2 required, x-m or y-n;
    // q1 = b: q2 hidden, any q3 → (2 + 2 + 2) plus q3 unanswered (1 + 2 + 1) = 10
    expect(evaluate(compiled, {}).line.consistency).toEqual({ exact: true, configurations: '10' });
  });

  it('multi_choice: one boolean per option, min_selected applies once something is selected', () => {
    const compiled = compileOk(
      model({
        questions: [
          {
            key: 'extras',
            type: 'multi_choice',
            label: 'extras',
            min_selected: 2,
            max_selected: 2,
            options: opts('a', 'b', 'c'),
          },
        ],
      }),
    );
    // nothing, or two of three
    expect(compiled.consistency.analysis.configurations).toBe('4');
    expect(options(evaluate(compiled, {}), 'extras')).toEqual([
      ['a', true, []],
      ['b', true, []],
      ['c', true, []],
    ]);
    const two = evaluate(compiled, { extras: ['a', 'b'] });
    expect(two.valid).toBe(true);
    // c would make three: its own question's other selections exclude it
    expect(options(two, 'extras')).toEqual([
      ['a', true, []],
      ['b', true, []],
      ['c', false, ['extras']],
    ]);
    // one selected is not a dead end (another can be added): no conflict, just too few
    const one = evaluate(compiled, { extras: ['a'] });
    expect(one.errors.map((e) => e.code)).toEqual(['too_few_selected']);
    expect(one.line.consistency.configurations).toBe('2');
  });

  it('integer with min and max is finite (no value + each admissible value)', () => {
    const compiled = compileOk(
      model({
        questions: [
          { key: 'n', type: 'integer', label: 'n', min: 1, max: 3 },
          { key: 'free', type: 'integer', label: 'free', min: 0 },
        ],
        rules: [{ key: 'not_two', message: 'm', assert: 'n != 2' }],
      }),
    );
    // n: no value, 1 or 3 (2 fails the rule); `free` has no max: outside the finite part
    expect(compiled.consistency.analysis).toEqual(
      expect.objectContaining({ exact: true, configurations: '3' }),
    );
    const two = evaluate(compiled, { n: 2 });
    expect(two.errors.map((e) => [e.code, e.answers, e.rules])).toEqual([
      ['conflict', [{ question: 'n', values: [2] }], ['not_two']],
    ]);
    expect(two.line.consistency.configurations).toBe('0');
  });

  it('available_if over finite questions: the option is excluded, naming itself and the answer', () => {
    const compiled = compileOk(
      model({
        questions: [
          choice('tier', ['silver', 'gold']),
          {
            key: 'seat',
            type: 'choice',
            label: 'seat',
            options: [
              { key: 'basic', label: 'b' },
              { key: 'premium', label: 'p', available_if: "tier == 'gold'" },
            ],
          },
        ],
      }),
    );
    const silver = evaluate(compiled, { tier: 'silver' });
    const premium = question(silver, 'seat').options?.[1];
    expect(premium).toEqual(
      expect.objectContaining({
        available: false,
        unavailable_because: ['premium'],
        conflicts_with: ['tier'],
      }),
    );
    // unanswered tier is null: `null == 'gold'` is false, so premium needs tier = gold
    expect(options(evaluate(compiled, {}), 'seat')).toEqual([
      ['basic', true, []],
      ['premium', true, []],
    ]);
  });

  it('variables computed from finite questions are part of the finite part', () => {
    const compiled = compileOk(
      model({
        questions: [choice('size', ['s', 'l']), choice('frame', ['alu', 'steel'])],
        variables: [{ key: 'large', expr: "size == 'l'" }],
        rules: [{ key: 'large_steel', message: 'm', when: 'large', assert: "frame == 'steel'" }],
      }),
    );
    expect(options(evaluate(compiled, { size: 'l' }), 'frame')).toEqual([
      ['alu', false, ['size']],
      ['steel', true, []],
    ]);
    expect(
      question(evaluate(compiled, { size: 'l' }), 'frame').options?.[0].unavailable_because,
    ).toEqual(['large_steel']);
  });

  it('counts exactly past 2^53 (a decimal string)', () => {
    const questions = Array.from({ length: 20 }, (_, i) =>
      choice(`q${i}`, ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']),
    );
    const compiled = compileOk(model({ questions }));
    expect(compiled.consistency.analysis.configurations).toBe(String(11n ** 20n));
  });
});

describe('consistency: soft values', () => {
  it('a default that leaves no valid completion is suppressed (user answers never change)', () => {
    const compiled = compileOk(
      frameColor({
        questions: [
          choice('frame', ['pvc', 'alu']),
          choice('color', ['white', 'oak'], { default: 'white' }),
        ],
      }),
    );
    const alu = evaluate(compiled, { frame: 'alu' });
    expect(alu.valid).toBe(true);
    expect(question(alu, 'color')).toMatchObject({
      values: [],
      source: 'none',
      suppressed: ['default'],
    });
    const pvc = evaluate(compiled, { frame: 'pvc' });
    expect(question(pvc, 'color')).toMatchObject({
      values: ['white'],
      source: 'default',
      suppressed: [],
    });
  });

  it('a trigger value that leaves no valid completion is suppressed, naming the trigger', () => {
    const compiled = compileOk(
      frameColor({
        questions: [
          choice('frame', ['pvc', 'alu']),
          choice('color', ['white', 'oak']),
          { key: 'promo', type: 'boolean', label: 'promo' },
        ],
        triggers: [{ key: 'promo_oak', when: 'promo == true', set: { color: 'oak' } }],
      }),
    );
    const pvc = evaluate(compiled, { frame: 'pvc', promo: true });
    expect(pvc.valid).toBe(true);
    expect(question(pvc, 'color')).toMatchObject({ values: [], suppressed: ['promo_oak'] });
    expect(pvc.line.triggers[0]).toMatchObject({ key: 'promo_oak', fired: true, set: {} });
    const alu = evaluate(compiled, { frame: 'alu', promo: true });
    expect(question(alu, 'color')).toMatchObject({ values: ['oak'], source: 'trigger' });
  });
  it('answers that conflict once a suppressed default shows them give conflict errors', () => {
    // mode's default x leaves no completion with color red, so it is suppressed; mode then
    // has no value, which shows finish, and the user's red + gloss conflict in table cf.
    const document = model({
      questions: [
        choice('color', ['red', 'blue']),
        choice('mode', ['x', 'y'], { default: 'x' }),
        choice('finish', ['matte', 'gloss'], { visible_if: "mode != 'x'" }),
      ],
      rules: [
        table(
          'mc',
          ['mode', 'color'],
          [
            ['y', 'red'],
            ['x', 'blue'],
          ],
        ),
        table(
          'cf',
          ['color', 'finish'],
          [
            ['red', 'matte'],
            ['blue', 'gloss'],
          ],
        ),
      ],
    });
    const propagated = compileDocument(document, { consistencyMs: 0 });
    if (!propagated.ok) throw new Error('expected the model to compile');
    // With the diagram, and past the compile budget (propagation).
    for (const compiled of [compileOk(document), propagated.model]) {
      const result = evaluate(compiled, { color: 'red', finish: 'gloss' });
      expect(question(result, 'mode')).toMatchObject({ values: [], suppressed: ['default'] });
      expect(result.valid).toBe(false);
      const conflicts = result.errors.filter((e) => e.code === 'conflict');
      const set = [
        { question: 'color', values: ['red'] },
        { question: 'finish', values: ['gloss'] },
      ];
      expect(conflicts.map((e) => [e.path, e.answers, e.rules])).toEqual([
        ['questions.color', set, ['cf']],
        ['questions.finish', set, ['cf']],
      ]);
    }
  });

  it('many suppressions in a row: the value phase is charged once, warnings are not repeated', () => {
    // 30 defaults that each leave no completion once frame is pvc: 30 rounds, 31 value
    // phases. The budget pays for one run of every expression, no more.
    const keys = Array.from({ length: 30 }, (_, i) => `q${i}`);
    const document = model({
      questions: [
        choice('frame', ['pvc', 'alu']),
        ...keys.map((key) => choice(key, ['a', 'b'], { default_expr: "'b'" })),
        choice('odd', ['x', 'y'], { default_expr: "'nope'" }),
      ],
      rules: keys.map((key) => ({
        key: `no_b_${key}`,
        message: 'no b with pvc',
        when: "frame == 'pvc'",
        assert: `${key} != 'b'`,
      })),
    });
    const unlimited = compileOk(document);
    const costs = [
      ...unlimited.questions.map((q) => q.defaultExpr?.cost ?? 0),
      ...unlimited.rules.map((r) => (r.when?.cost ?? 0) + (r.assert?.cost ?? 0)),
    ];
    const once = costs.reduce((sum, cost) => sum + cost, 0);
    const compiled = compileDocument(document, { evaluationCost: once });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const pvc = evaluate(compiled.model, { frame: 'pvc' });
    expect(pvc.errors).toEqual([]);
    for (const key of keys)
      expect(question(pvc, key)).toMatchObject({ values: [], suppressed: ['default'] });
    expect(pvc.warnings.filter((w) => w.code === 'invalid_default')).toHaveLength(1);
    const alu = evaluate(compiled.model, { frame: 'alu' });
    expect(question(alu, 'q0')).toMatchObject({ values: ['b'], source: 'default' });
  });
});

describe('consistency: model analysis and the compiled form', () => {
  it('a model with no valid configuration is refused, naming a minimal set of rules', () => {
    const result = compileDocument(
      model({
        questions: [choice('frame', ['pvc', 'alu'], { required: true })],
        rules: [
          table('only_pvc', ['frame'], [['pvc']]),
          { key: 'no_pvc', message: 'm', assert: "frame != 'pvc'" },
          { key: 'harmless', message: 'm', assert: "frame != 'steel'" },
        ],
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.code, p.path])).toEqual([
      ['inconsistent_model', 'questions.frame'],
      ['inconsistent_model', 'rules.only_pvc'],
      ['inconsistent_model', 'rules.no_pvc'],
    ]);
  });

  it('names at most 20 parts of a conflict in its message (each part is still a problem)', () => {
    const keys = Array.from({ length: 25 }, (_, i) => `q${i}`);
    const result = compileDocument(
      model({
        questions: keys.map((key) => choice(key, ['y', 'n'], { required: true })),
        // q0 is y, each q(i) y makes q(i+1) y, and q24 is not: every rule is needed.
        rules: [
          { key: 'first', message: 'm', assert: "q0 == 'y'" },
          ...keys.slice(1).map((key, i) => ({
            key: `then_${key}`,
            message: 'm',
            assert: `q${i} != 'y' || ${key} == 'y'`,
          })),
          { key: 'last', message: 'm', assert: "q24 != 'y'" },
        ],
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const conflict = result.problems.filter((p) => p.code === 'inconsistent_model');
    expect(conflict.length).toBeGreaterThan(20);
    const more = conflict.length - 20;
    expect(conflict[0].message).toMatch(
      new RegExp(
        `^the model has no valid configuration: ([\\w.]+, ){19}[\\w.]+ and ${more} more conflict$`,
      ),
    );
  });

  it('dead options are listed by path', () => {
    const compiled = compileOk(
      model({
        questions: [choice('a', ['x', 'y', 'z']), choice('b', ['p', 'q'])],
        rules: [
          table(
            't',
            ['a', 'b'],
            [
              ['x', 'p'],
              ['y', 'q'],
            ],
          ),
        ],
      }),
    );
    expect(compiled.consistency.analysis.dead_options).toEqual(['questions.a.options.z']);
    expect(question(evaluate(compiled, {}), 'a').options?.[2]).toMatchObject({
      available: false,
      unavailable_because: ['t'],
      conflicts_with: [],
    });
  });

  it('past the compile budget: accepted, not exact, availability by the local check', () => {
    const document = frameColor();
    const compiled = compileOk(document);
    const result = compileDocument(document, { consistencyMs: 0 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.consistency.analysis).toMatchObject({
      exact: false,
      reason: expect.any(String),
    });
    const line = evaluate(result.model, { frame: 'pvc' });
    expect(line.line.consistency.exact).toBe(false);
    expect(line.line.consistency.reason).toMatch(/budget/);
    const available = (result: Result) =>
      question(result, 'color').options?.map((o) => [o.key, o.available]);
    expect(available(line)).toEqual(available(evaluate(compiled, { frame: 'pvc' })));
    expect(question(line, 'color').options?.[1].unavailable_because).toEqual(['fc']);
  });

  it('past the enumeration bound an expression stays outside: not exact, the local check holds', () => {
    const document = model({
      questions: [choice('a', ['x', 'y']), choice('b', ['x', 'y'])],
      rules: [{ key: 'differ', message: 'm', assert: 'a != b' }],
    });
    const result = compileDocument(document, { consistencyEnumeration: 4 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model.consistency.exact).toBe(false);
    expect(result.model.consistency.reason).toMatch(/rules\.differ needs 9 assignments/);
    expect(rule(evaluate(result.model, { a: 'x', b: 'x' }), 'differ').status).toBe('failed');
  });

  it('the compiled form round-trips through bytes and is reused instead of recompiled', () => {
    const document = model({
      questions: [choice('a', ['x', 'y']), choice('b', ['p', 'q'])],
      rules: [table('t', ['a', 'b'], [['x', 'p']])],
    });
    const compiled = compileOk(document);
    const bytes = serializeConsistency(compiled.consistency);
    const back = deserializeConsistency(bytes);
    expect(back).toEqual(compiled.consistency);
    const marked = serializeConsistency({
      ...compiled.consistency,
      analysis: { ...compiled.consistency.analysis, compile_ms: 123456 },
    });
    const reused = compileDocument(document, undefined, { consistency: marked });
    expect(reused.ok && reused.model.consistency.analysis.compile_ms).toBe(123456);
    // A form of another model (other domains) is not used.
    const other = compileOk(model({ questions: [choice('a', ['x', 'y', 'z'])] }));
    const fresh = compileDocument(document, undefined, {
      consistency: serializeConsistency(other.consistency),
    });
    expect(fresh.ok && fresh.model.consistency.analysis.configurations).toBe('4');
    expect(deserializeConsistency(bytes.subarray(0, 10))).toBeUndefined();
  });
});
