/**
 * docs/model-format.md "Consistency: no dead ends": `unavailable_because` names the rules
 * (and options, for available_if) that exclude an option, also when the rule reaches the
 * option's question only indirectly (rule-mentions.ts, indirectRules).
 */
import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/engine/work.js';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import { choice, compileOk, evaluate, model, question } from '../helpers.js';
import { celValue, domainCount, prng, randomModel } from '../consistency/random-model.js';

type Result = ReturnType<typeof evaluate>;
const option = (result: Result, key: string, optionKey: string) => {
  const found = question(result, key).options?.find((o) => o.key === optionKey);
  if (found === undefined) throw new Error(`no option ${key}.${optionKey}`);
  return found;
};

describe('unavailable_because when a rule reaches the question indirectly', () => {
  it('names the rule that reads a question visible only for another answer (visible_if)', () => {
    const document = model({
      questions: [choice('a', ['x', 'y']), choice('b', ['k'], { visible_if: "a == 'y'" })],
      rules: [{ key: 'needs_b', message: 'b must be k', assert: "b == 'k'" }],
    });
    const compiled = compileOk(document);
    expect(compiled.consistency.analysis.dead_options).toEqual(['questions.a.options.x']);
    const x = option(evaluate(compiled, {}), 'a', 'x');
    expect(x.available).toBe(false);
    expect(x.unavailable_because).toEqual(['needs_b']);
    expect(x.conflicts_with).toEqual([]);
    // The same past the compile budget (availability by propagation).
    const relaxed = compileDocument(document, { consistencyMs: 0 });
    if (!relaxed.ok) throw new Error('no model');
    const result = evaluate(relaxed.model, {});
    expect(result.line.consistency.exact).toBe(false);
    expect(option(result, 'a', 'x').unavailable_because).toEqual(['needs_b']);
  });

  it('names the rule that reads the question through a variable', () => {
    const compiled = compileOk(
      model({
        questions: [choice('a', ['x', 'y'])],
        variables: [{ key: 'is_y', expr: "a == 'y'" }],
        rules: [{ key: 'only_y', message: 'pick y', assert: 'is_y' }],
      }),
    );
    const x = option(evaluate(compiled, {}), 'a', 'x');
    expect(x.available).toBe(false);
    expect(x.unavailable_because).toEqual(['only_y']);
  });

  it('follows a chain of visibility and a chain of variables', () => {
    const compiled = compileOk(
      model({
        questions: [
          choice('a', ['x', 'y']),
          choice('b', ['m'], { visible_if: "a == 'y'" }),
          choice('c', ['k'], { visible_if: "b == 'm'" }),
          choice('d', ['u', 'v']),
        ],
        variables: [
          { key: 'is_u', expr: "d == 'u'" },
          { key: 'still_u', expr: 'is_u' },
        ],
        rules: [
          { key: 'needs_c', message: 'c must be k', assert: "c == 'k'" },
          { key: 'only_u', message: 'pick u', assert: 'still_u' },
        ],
      }),
    );
    const result = evaluate(compiled, {});
    expect(option(result, 'a', 'x').unavailable_because).toEqual(['needs_c']);
    expect(option(result, 'b', 'm').available).toBe(true);
    expect(option(result, 'd', 'v').unavailable_because).toEqual(['only_u']);
  });

  it('prefers the rules through the questions that read it, the nearest first', () => {
    // b (visible only when a is y) is read by `near`; c (visible only when b is m) by `far`.
    const compiled = compileOk(
      model({
        questions: [
          choice('a', ['x', 'y']),
          choice('b', ['m'], { visible_if: "a == 'y'" }),
          choice('c', ['k'], { visible_if: "b == 'm'" }),
        ],
        rules: [
          { key: 'near', message: 'b must be m', assert: "b == 'm'" },
          { key: 'far', message: 'c must be k', assert: "c == 'k'" },
        ],
      }),
    );
    expect(option(evaluate(compiled, {}), 'a', 'x').unavailable_because).toEqual(['near']);
  });

  it("names the option's own available_if and the rule on the question it reads", () => {
    // x needs c other than n (true while c is unanswered: no local reason); a rule needs n.
    const compiled = compileOk(
      model({
        questions: [
          {
            key: 'a',
            type: 'choice',
            label: 'a',
            options: [
              { key: 'x', label: 'x', available_if: "c != 'n'" },
              { key: 'y', label: 'y' },
            ],
          },
          choice('c', ['m', 'n']),
        ],
        rules: [{ key: 'only_n', message: 'pick n', assert: "c == 'n'" }],
      }),
    );
    const x = option(evaluate(compiled, {}), 'a', 'x');
    expect(x.available).toBe(false);
    expect(x.unavailable_because).toEqual(['x', 'only_n']);
  });

  it("names an option's own available_if the local check cannot decide", () => {
    const compiled = compileOk(
      model({
        questions: [
          {
            key: 'a',
            type: 'choice',
            label: 'a',
            options: [
              { key: 'x', label: 'x' },
              { key: 'y', label: 'y', available_if: 'flag && a == null' },
            ],
          },
          { key: 'flag', type: 'boolean', label: 'flag' },
        ],
      }),
    );
    const y = option(evaluate(compiled, {}), 'a', 'y');
    expect(y.available).toBe(false);
    expect(y.unavailable_because).toEqual(['y']);
  });

  it('names the other options a multi_choice min_selected needs when no rule is involved', () => {
    // o0 can never be chosen; min_selected 2 of two options then excludes o1 too.
    const compiled = compileOk(
      model({
        questions: [
          choice('a', ['p', 'q']),
          {
            key: 'm',
            type: 'multi_choice',
            label: 'm',
            min_selected: 2,
            options: [
              { key: 'o0', label: 'o0', available_if: "a == 'p' && a == 'q'" },
              { key: 'o1', label: 'o1' },
            ],
          },
        ],
      }),
    );
    const o1 = option(evaluate(compiled, {}), 'm', 'o1');
    expect(o1.available).toBe(false);
    expect(o1.unavailable_because).toEqual(['o0']);
  });

  it('says blocked_by_conflict when the other answers already conflict', () => {
    const compiled = compileOk(
      model({
        questions: [choice('a', ['x', 'y']), choice('free', ['p', 'q'])],
        rules: [{ key: 'only_x', message: 'pick x', assert: "a == 'x'" }],
      }),
    );
    // Issue #32: the answer a = y has no completion, so no option of the unrelated
    // question can be chosen: it says so instead of naming only_x.
    const result = evaluate(compiled, { a: 'y' });
    const p = option(result, 'free', 'p');
    expect(p.available).toBe(false);
    expect(p.conflicts_with).toEqual(['a']);
    expect(p.unavailable_because).toEqual(['blocked_by_conflict']);
    expect(result.errors).toEqual([
      {
        code: 'conflict',
        message: 'the answer a = "y" has no valid completion (only_x: pick x); change it',
        path: 'questions.a',
        answers: [{ question: 'a', values: ['y'] }],
        rules: ['only_x'],
      },
    ]);
  });

  it('keeps the direct mention when there is one', () => {
    const compiled = compileOk(
      model({
        questions: [choice('a', ['x', 'y']), choice('b', ['k'], { visible_if: "a == 'y'" })],
        rules: [
          { key: 'needs_b', message: 'b must be k', assert: "b == 'k'" },
          { key: 'names_a', message: 'a or b', assert: "a == 'y' || b == 'k'" },
        ],
      }),
    );
    expect(option(evaluate(compiled, {}), 'a', 'x').unavailable_because).toEqual(['names_a']);
  });
});

/** Question keys (q0…q9) an expression of the random models reads. */
const namesIn = (text: unknown): string[] =>
  typeof text === 'string' ? (text.match(/\bq\d\b/g) ?? []) : [];

/**
 * Independently of rule-mentions.ts: per question of a random model, whether an `error`
 * rule (or table) is connected to it through the questions' visible_if, required and
 * available_if (read in either direction).
 */
function connectedToRule(document: Record<string, unknown>): Map<string, boolean> {
  const questions = document.questions as Array<Record<string, unknown>>;
  const rules = document.rules as Array<Record<string, unknown>>;
  const parent = new Map<string, string>(questions.map((q) => [q.key as string, q.key as string]));
  const find = (key: string): string => {
    let root = key;
    while (parent.get(root) !== root) root = parent.get(root) as string;
    return root;
  };
  const join = (a: string, b: string): void => void parent.set(find(a), find(b));
  for (const q of questions) {
    const key = q.key as string;
    const read = [
      ...namesIn(q.visible_if),
      ...namesIn(q.required),
      ...((q.options as Array<Record<string, unknown>> | undefined) ?? []).flatMap((o) =>
        namesIn(o.available_if),
      ),
    ];
    for (const other of read) join(key, other);
  }
  const ruled = new Set<string>();
  for (const rule of rules) {
    if (rule.severity === 'warning') continue;
    const allowed = rule.allowed as { columns: string[] } | undefined;
    for (const name of [
      ...(allowed?.columns ?? []),
      ...namesIn(rule.when),
      ...namesIn(rule.assert),
    ])
      ruled.add(find(name));
  }
  return new Map(questions.map((q) => [q.key as string, ruled.has(find(q.key as string))]));
}

const MODELS = Number(process.env.REASON_MODELS ?? 200);

describe('unavailable_because on random small models (exact)', () => {
  it(`${MODELS} models: every unavailable option a rule or its available_if can explain has a reason`, () => {
    let checked = 0;
    let throughIndirection = 0;
    for (let seed = 1; seed <= MODELS; seed++) {
      const random = prng(seed);
      const { document, specs } = randomModel(random);
      const compiled = compileDocument(document);
      if (!compiled.ok) continue;
      const model = compiled.model;
      expect(model.consistency.analysis.exact).toBe(true);
      const connected = connectedToRule(document);
      const ruleKeys = new Set(model.rules.map((rule) => rule.key));
      for (let request = 0; request < 5; request++) {
        const answers: Record<string, { values: unknown[] }> = {};
        if (request > 0)
          for (const spec of specs) {
            if (!(random() < 0.45)) continue;
            const value = celValue(spec, 1 + Math.floor(random() * (domainCount(spec) - 1)));
            answers[spec.key] = {
              values: Array.isArray(value)
                ? value
                : [typeof value === 'bigint' ? Number(value) : value],
            };
          }
        const { line } = evaluateConfiguration(model, {
          modelId: 1,
          versionNumber: 1,
          questions: answers,
        });
        const context = `seed ${seed} answers ${JSON.stringify(answers)}`;
        for (const [q, shown] of line.questions.entries()) {
          if (!shown.visible) continue;
          const compiledQuestion = model.questions[q];
          for (const [o, reported] of (shown.options ?? []).entries()) {
            if (reported.available) continue;
            // Blocked by conflicting answers: that reason alone, and only then.
            if (reported.unavailable_because.includes('blocked_by_conflict')) {
              expect(reported.unavailable_because, context).toEqual(['blocked_by_conflict']);
              expect(line.consistency.configurations, context).toBe('0');
              continue;
            }
            // Every reason is a rule key or one of this question's option keys.
            for (const reason of reported.unavailable_because)
              expect(
                ruleKeys.has(reason) || compiledQuestion.optionIndex.has(reason),
                `${context} ${shown.key}.${reported.key}: ${reason}`,
              ).toBe(true);
            const explainable =
              compiledQuestion.options[o].availableIf !== undefined ||
              (shown.type === 'multi_choice' &&
                (compiledQuestion.minSelected ?? 0) >= 2 &&
                compiledQuestion.options.some((other) => other.availableIf !== undefined)) ||
              connected.get(shown.key) === true ||
              reported.conflicts_with.some((key) => connected.get(key) === true);
            if (!explainable) continue;
            checked++;
            expect(
              reported.unavailable_because.length,
              `${context} ${shown.key}.${reported.key}`,
            ).toBeGreaterThan(0);
            const named = new Set(
              model.rules
                .filter(
                  (rule) =>
                    rule.table?.columns.includes(q) === true ||
                    rule.when?.names.includes(shown.key) === true ||
                    rule.assert?.names.includes(shown.key) === true,
                )
                .map((rule) => rule.key),
            );
            if (!reported.unavailable_because.some((reason) => named.has(reason)))
              throughIndirection++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(MODELS * 5);
    // The generator exercises the indirect case (no rule naming the question).
    expect(throughIndirection).toBeGreaterThan(MODELS);
  }, 120_000);
});
