import { describe, expect, it } from 'vitest';
import { generateModel } from '../../../tools/gen-model.mjs';
import {
  compileModel,
  evaluateConfiguration,
  questionsJson,
  type CompiledModel,
  type EvaluationRequest,
  type LineQuestion,
} from '../../../src/engine/index.js';
import { prng, randomModel } from '../consistency/random-model.js';
import { compileOk, doorDocument, windowDocument } from '../helpers.js';

/**
 * The questions of a full line written from prepared text (questions-json.ts) against
 * JSON.stringify, the reference: the same text for the whole list and for every range
 * the serializer may ask for.
 */
function expectSameJson(model: CompiledModel, request: EvaluationRequest, label: string): void {
  const { questions } = evaluateConfiguration(model, request).line;
  expect(questionsJson(questions, 0, questions.length), label).toBe(
    JSON.stringify(questions).slice(1, -1),
  );
  for (const [start, end] of [
    [0, 1],
    [1, Math.min(3, questions.length)],
    [questions.length - 1, questions.length],
    [2, 2],
  ])
    expect(questionsJson(questions, start, end), `${label} [${start}, ${end})`).toBe(
      JSON.stringify(questions.slice(start, end)).slice(1, -1),
    );
}

/** Answers to a random part of a random model's questions, some out of the domain. */
function randomAnswers(random: () => number, document: Record<string, unknown>) {
  const answers: Record<string, unknown> = {};
  for (const question of document.questions as Array<Record<string, unknown>>) {
    if (random() < 0.4) continue;
    const options = ((question.options as Array<{ key: string }> | undefined) ?? []).map(
      (option) => option.key,
    );
    const values =
      question.type === 'choice'
        ? [random() < 0.1 ? 'unknown' : options[Math.floor(random() * options.length)]]
        : question.type === 'multi_choice'
          ? options.filter(() => random() < 0.5)
          : question.type === 'boolean'
            ? [random() < 0.5]
            : [(question.min as number) + Math.floor(random() * 4)];
    answers[question.key as string] = { values };
  }
  return answers;
}

describe('questionsJson writes what JSON.stringify writes', () => {
  it('on random small models and answers (unavailable options, values, hidden answers)', () => {
    let compared = 0;
    let unavailable = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const random = prng(seed);
      const { document } = randomModel(random);
      const compiled = compileModel(document);
      if (!compiled.ok) continue;
      for (let i = 0; i < 4; i++) {
        const request = {
          modelId: 1,
          versionNumber: 1,
          questions: randomAnswers(random, document),
        };
        expectSameJson(compiled.model, request, `seed ${seed}, answers ${i}`);
        const { questions } = evaluateConfiguration(compiled.model, request).line;
        if (questions.some((q) => q.options?.some((o) => !o.available))) unavailable++;
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
    expect(unavailable).toBeGreaterThan(50);
  });

  it('on the window and door examples, in every language and one the models lack', () => {
    for (const [name, document] of [
      ['window', windowDocument()],
      ['door', doorDocument()],
    ] as const) {
      const model = compileOk(document);
      for (const languageCode of [null, 'nl', 'de', 'xx'])
        for (const questions of [
          {},
          { width: { values: [2600] }, frame: { values: ['wood'] }, color: { values: ['oak'] } },
        ])
          expectSameJson(model, { modelId: 1, versionNumber: 1, questions, languageCode }, name);
    }
  });

  it('with texts JSON must escape, and with members left out (no price, no label)', () => {
    const model = compileOk({
      general: { name: 'Escapes', currency: 'EUR', default_language: 'en' },
      questions: [
        {
          key: 'finish',
          type: 'choice',
          label: 'Quote " backslash \\ tab \t newline \n é 漢 😀 \u2028',
          options: [
            { key: 'a', label: 'control \u0001 and \u007f' },
            { key: 'b', label: 'price', price: '12.50' },
          ],
        },
        { key: 'count', type: 'integer', label: 'Count', min: 0, max: 3 },
        { key: 'note', type: 'text', label: 'Note' },
      ],
      translation: { fr: { 'questions.finish.label': 'Finition « spéciale »' } },
    });
    for (const languageCode of [null, 'fr'])
      expectSameJson(
        model,
        {
          modelId: 1,
          versionNumber: 1,
          questions: { finish: { values: ['b'] }, note: { values: ['line "one"\nline two'] } },
          languageCode,
        },
        `escapes ${languageCode}`,
      );
  });

  it('on a generated model of 300 questions (fired triggers, failed rules)', () => {
    const { model: document, answers } = generateModel(300);
    const model = compileOk(document);
    expectSameJson(model, { modelId: 1, versionNumber: 1, questions: answers }, 'generated');
  });

  it('writes a question whose leading members were changed with JSON.stringify', () => {
    const model = compileOk(windowDocument());
    const { questions } = evaluateConfiguration(model, {
      modelId: 1,
      versionNumber: 1,
      questions: {},
    }).line;
    const frame = questions.findIndex((q) => q.key === 'frame');
    const changed = { ...questions[frame], label: 'Changed' };
    const options = questions[frame].options ?? [];
    const changedOption = { ...options[0], price: '1.00' };
    (questions as LineQuestion[])[frame] = changed;
    (questions[frame].options as unknown[]) = [changedOption, ...options.slice(1)];
    expect(questionsJson(questions, 0, questions.length)).toBe(
      JSON.stringify(questions).slice(1, -1),
    );
    expect(questionsJson(questions, 0, questions.length)).toContain('"label":"Changed"');
  });

  it('answers undefined for a list the engine did not make (e.g. parsed from storage)', () => {
    const model = compileOk(windowDocument());
    const { questions } = evaluateConfiguration(model, {
      modelId: 1,
      versionNumber: 1,
      questions: {},
    }).line;
    expect(questionsJson(JSON.parse(JSON.stringify(questions)) as unknown[], 0, 1)).toBeUndefined();
    expect(questionsJson([...questions], 0, 1)).toBeUndefined();
  });
});
