import { describe, expect, it } from 'vitest';
import { generateModel } from '../../../tools/gen-model.mjs';
import {
  compileDocument,
  type CompiledModel,
  type EvaluationRequest,
  type LineQuestion,
} from '../../../src/engine/index.js';
import { lineListJson, reviveModel, toTransferable } from '../../../src/engine/runtime.js';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import { lineTextBytes } from '../../../src/engine/evaluate/line-json.js';
import { prng } from '../consistency/random-model.js';
import { randomAnswers, randomModelWithBom } from './random-configurations.js';
import { compileOk, doorDocument, windowDocument } from '../helpers.js';

/**
 * A line's questions, rules and BOM items written from prepared text (line-json.ts)
 * against JSON.stringify, the reference: the same text for the whole list and for every
 * range the serializer may ask for, in both views.
 */
function expectSameJson(model: CompiledModel, request: EvaluationRequest, label: string): void {
  const full = evaluateConfiguration(model, request).line;
  const compact = evaluateConfiguration(model, { ...request, view: 'compact' }).line;
  const lists: Array<[string, readonly unknown[]]> = [
    ['questions', full.questions],
    ['rules', full.rules],
    ['bom_items', full.bom_items],
    ['compact rules', compact.rules],
    ['compact bom_items', compact.bom_items],
  ];
  for (const [name, list] of lists) {
    const at = `${label}: ${name}`;
    expect(lineListJson(list, 0, list.length), at).toBe(JSON.stringify(list).slice(1, -1));
    for (const [start, end] of [
      [0, 1],
      [1, Math.min(3, list.length)],
      [list.length - 1, list.length],
      [2, 2],
    ])
      if (start >= 0 && start <= end && end <= list.length)
        expect(lineListJson(list, start, end), `${at} [${start}, ${end})`).toBe(
          JSON.stringify(list.slice(start, end)).slice(1, -1),
        );
  }
}

/** The window example's questions, unanswered. */
const windowQuestions = (): LineQuestion[] =>
  evaluateConfiguration(compileOk(windowDocument()), {
    modelId: 1,
    versionNumber: 1,
    questions: {},
  }).line.questions;

describe('lineListJson writes what JSON.stringify writes', () => {
  it('on random small models and answers (unavailable options, values, hidden answers)', () => {
    let compared = 0;
    let unavailable = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const random = prng(seed);
      const document = randomModelWithBom(random);
      const compiled = compileDocument(document);
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
    ] as const)
      for (const languageCode of [null, 'nl', 'de', 'xx']) {
        // A version of its own per language: each one's first (see the next test).
        const model = compileOk(document);
        for (const questions of [
          {},
          { width: { values: [2600] }, frame: { values: ['wood'] }, color: { values: ['oak'] } },
        ])
          expectSameJson(model, { modelId: 1, versionNumber: 1, questions, languageCode }, name);
      }
  });

  it('prepares text for the first two languages of a version, then writes as before', () => {
    const model = compileOk(windowDocument());
    const lines = [null, 'nl', 'de', null].map(
      (languageCode) =>
        evaluateConfiguration(model, { modelId: 1, versionNumber: 1, questions: {}, languageCode })
          .line,
    );
    const prepared = lines.map((line) => lineListJson(line.questions, 0, 1) !== undefined);
    expect(prepared).toEqual([true, true, false, true]);
    // The third language's rules are its own objects, not shared ones.
    expect(Object.isFrozen(lines[2].rules[0])).toBe(false);
    expect(Object.isFrozen(lines[1].rules[0])).toBe(true);
    // Unknown languages fall back to the default language's texts: no third language.
    const unknown = evaluateConfiguration(model, {
      modelId: 1,
      versionNumber: 1,
      questions: {},
      languageCode: 'xx',
    }).line;
    expect(lineListJson(unknown.questions, 0, 1)).toBeDefined();
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
    const questions = windowQuestions();
    const frame = questions.findIndex((q) => q.key === 'frame');
    const changed = { ...questions[frame], label: 'Changed' };
    const options = questions[frame].options ?? [];
    const changedOption = { ...options[0], price: '1.00' };
    (questions as LineQuestion[])[frame] = changed;
    (questions[frame].options as unknown[]) = [changedOption, ...options.slice(1)];
    expect(lineListJson(questions, 0, questions.length)).toBe(
      JSON.stringify(questions).slice(1, -1),
    );
    expect(lineListJson(questions, 0, questions.length)).toContain('"label":"Changed"');
  });

  it('answers undefined for a list the engine did not make (e.g. parsed from storage)', () => {
    const questions = windowQuestions();
    expect(lineListJson(JSON.parse(JSON.stringify(questions)) as unknown[], 0, 1)).toBeUndefined();
    expect(lineListJson([...questions], 0, 1)).toBeUndefined();
  });

  it('shares rules and childless fixed BOM lines between lines, frozen', () => {
    const { model: document, answers } = generateModel(60);
    const model = compileOk(document);
    const request = { modelId: 1, versionNumber: 1, questions: answers };
    const first = evaluateConfiguration(model, request).line;
    const second = evaluateConfiguration(model, { ...request, questions: {} }).line;
    expect(second.rules[0]).toBe(first.rules[0]);
    expect(Object.isFrozen(first.rules[0])).toBe(true);
    // Literal quantity and price (the others have a quantity expression).
    const literal = new Set(
      (document.bom_items as Array<{ key: string; quantity: unknown }>)
        .filter((item) => typeof item.quantity === 'number')
        .map((item) => item.key),
    );
    const fixed = first.bom_items.filter((item) => literal.has(item.key));
    expect(fixed.length).toBeGreaterThan(10);
    for (const item of first.bom_items)
      expect(Object.isFrozen(item), item.key).toBe(literal.has(item.key));
    expect(evaluateConfiguration(model, request).line.bom_items).toEqual(first.bom_items);
    expect(evaluateConfiguration(model, request).line.bom_items[0]).toBe(first.bom_items[0]);
    // The compact view has its own (without `children`).
    const compact = evaluateConfiguration(model, { ...request, view: 'compact' }).line;
    expect(compact.bom_items[0]).not.toBe(first.bom_items[0]);
    expect(JSON.stringify(compact.bom_items[0])).not.toContain('children');
  });

  it('is counted in a compiled model’s estimated bytes (lineTextBytes)', () => {
    const { model: document, answers } = generateModel(300);
    const model = compileOk(document);
    const line = evaluateConfiguration(model, {
      modelId: 1,
      versionNumber: 1,
      questions: answers,
    }).line;
    // The prepared text is about the lists' JSON (two bytes a character), plus objects.
    const chars = JSON.stringify([line.questions, line.rules, line.bom_items]).length;
    expect(lineTextBytes(model)).toBeGreaterThan(2 * chars);
    expect(lineTextBytes(model)).toBeLessThan(8 * chars);
    const { bytes } = reviveModel(toTransferable(model));
    expect(bytes).toBeGreaterThan(lineTextBytes(model));
  });
});
