/**
 * The completion search past the compile budget (consistency/search.ts) and the
 * confirmation of what propagation keeps (evaluate/confirmed.ts): a value is confirmed by
 * a completion, refuted by an exhausted search, and left shown but listed as unconfirmed
 * when the budget runs out — availability is never guessed.
 */
import { describe, expect, it } from 'vitest';
import { compileDocument, type CompiledModel } from '../../../src/engine/work.js';
import { propagatorOf } from '../../../src/engine/consistency/prepared.js';
import { freeAssignment } from '../../../src/engine/consistency/query.js';
import { CompletionSearch } from '../../../src/engine/consistency/search.js';
import { confirmSupport, unconfirmedPaths } from '../../../src/engine/evaluate/confirmed.js';
import { choice, evaluate, model } from '../helpers.js';

const differ = (x: string, y: string, values: string[]) => ({
  key: `${x}_${y}`,
  message: `${x} differs from ${y}`,
  allowed: {
    columns: [x, y],
    rows: values.flatMap((a) => values.filter((b) => b !== a).map((b) => [a, b])),
  },
});

/** x, y, z pairwise different; `switch` = on allows only two colours for x, y and z. */
const triangle = model({
  questions: [
    choice('switch', ['on', 'off'], { required: true }),
    ...['x', 'y', 'z'].map((key) => choice(key, ['r', 'g', 'b'], { required: true })),
  ],
  rules: [
    differ('x', 'y', ['r', 'g', 'b']),
    differ('y', 'z', ['r', 'g', 'b']),
    differ('x', 'z', ['r', 'g', 'b']),
    ...['x', 'y', 'z'].map((key) => ({
      key: `two_colours_${key}`,
      message: 'Two colours when switched on',
      allowed: {
        columns: ['switch', key],
        rows: [
          ['on', 'r'],
          ['on', 'g'],
          ['off', 'r'],
          ['off', 'g'],
          ['off', 'b'],
        ],
      },
    })),
  ],
});

function fallback(document: unknown): CompiledModel {
  const result = compileDocument(document, { consistencyMs: 0 });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.model;
}

describe('the completion search past the compile budget', () => {
  it('refutes an option propagation keeps: two colours for three pairwise different questions', () => {
    const compiled = fallback(triangle);
    const line = evaluate(compiled, {});
    const switchOptions = line.line.questions[0].options?.map((o) => [o.key, o.available]);
    expect(switchOptions).toEqual([
      ['on', false],
      ['off', true],
    ]);
    expect(line.line.consistency.unconfirmed).toBeUndefined();
    // Propagation alone keeps `on`: arc consistency cannot see the odd cycle.
    const form = compiled.consistency;
    const domains = propagatorOf(form).closure(freeAssignment(form));
    expect(domains?.[form.valueBase[form.firstLayer[0]] + 1]).toBe(1);
    // Answered, `on` is a conflict of that answer alone, naming the rules that reach it.
    const answered = evaluate(compiled, { switch: 'on' });
    expect(answered.errors.filter((e) => e.path?.startsWith('questions.switch'))).toEqual([
      expect.objectContaining({
        code: 'conflict',
        path: 'questions.switch',
        answers: [{ question: 'switch', values: ['on'] }],
        rules: ['two_colours_x', 'two_colours_y', 'two_colours_z'],
      }),
    ]);
  });

  it('finds a completion through each value it confirms', () => {
    const form = fallback(triangle).consistency;
    const search = new CompletionSearch(form, propagatorOf(form));
    const fixed = freeAssignment(form);
    fixed[form.firstLayer[0]] = 2; // off
    const found = search.find(fixed);
    expect(found).toBeInstanceOf(Int32Array);
    const [x, y, z] = [1, 2, 3].map((q) => (found as Int32Array)[form.firstLayer[q]]);
    expect(new Set([x, y, z]).size).toBe(3);
    fixed[form.firstLayer[0]] = 1; // on
    expect(search.find(fixed)).toBe('none');
  });

  it('past its budget shows what propagation keeps, listed as unconfirmed, and refutes nothing', () => {
    const compiled = fallback(triangle);
    const form = compiled.consistency;
    const propagator = propagatorOf(form);
    const fixed = freeAssignment(form);
    const supported = propagator.closure(fixed) as Uint8Array;
    const before = supported.slice();
    const closures = () => ({ full: propagator.closure(fixed), withoutAnswer: new Map() });
    const unconfirmed = confirmSupport(
      form,
      new CompletionSearch(form, propagator, 0),
      fixed,
      supported,
      closures(),
    );
    expect(supported).toEqual(before);
    expect(unconfirmedPaths(compiled, unconfirmed)).toEqual([
      'questions.switch.options.on',
      'questions.switch.options.off',
      ...['x', 'y', 'z'].flatMap((q) => ['r', 'g', 'b'].map((o) => `questions.${q}.options.${o}`)),
    ]);
    // With a budget, `on` is refuted and everything else confirmed.
    const search = new CompletionSearch(form, propagator);
    const decided = confirmSupport(form, search, fixed, supported, closures());
    expect(unconfirmedPaths(compiled, decided)).toEqual([]);
    expect(supported[form.valueBase[form.firstLayer[0]] + 1]).toBe(0);
  });
});
