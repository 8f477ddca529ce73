/**
 * A line's problems as the worker sends them (JSON text, evaluate-task.ts) and as the main
 * thread reads them (evaluated-line.ts) and puts them into a preview (line-answer.ts): on
 * random models and answers (invalid ones included), the same objects as the engine's
 * and, in the answer, the same bytes as JSON.stringify of the members.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, type EvaluationRequest } from '../../src/engine/work.js';
import { AssetUrlSigner } from '../../src/engine-runtime/asset-url-signer.js';
import { receivedLine } from '../../src/engine-runtime/evaluated-line.js';
import { evaluateTask } from '../../src/engine-runtime/tasks/evaluate-task.js';
import { lineWith } from '../../src/carts/line-answer.js';
import { prng, randomModel } from '../engine/consistency/random-model.js';
import { compiledAs, MODELS, randomAnswers } from '../engine/evaluate/guided-models.js';

const urls = new AssetUrlSigner({ key: new Uint8Array(32).fill(1), ttlSeconds: 60 });
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const withoutTiming = (json: string) => json.replace(/"evaluated_in_ms":[0-9.e-]+/, '"t":0');

describe("a line's problems as text, from the worker to the answer", () => {
  it(`${MODELS} random models: the engine's problems, and JSON.stringify's bytes`, () => {
    let problems = 0;
    let lines = 0;
    for (let seed = 1; seed <= MODELS; seed++) {
      const random = prng(9100 + seed);
      const { document, specs } = randomModel(random);
      const compiled = compiledAs(document, 'compiled');
      if (!compiled.ok) continue;
      for (let r = 0; r < 4; r++) {
        const answers = randomAnswers(random, specs, 0.6);
        // Now and then an answer to no question, or of the wrong kind: more problems.
        if (random() < 0.3) answers.gone = { values: ['x'] };
        for (const view of ['full', 'compact'] as const) {
          const request = { modelId: 1, versionNumber: 2, questions: answers, view };
          const expected = evaluate(compiled.model, request as EvaluationRequest);
          const task = {
            kind: 'evaluate' as const,
            version: { key: '1:2', modelId: 1, versionNumber: 2 },
            companyId: 3,
            questions: JSON.stringify(answers),
            languageCode: null,
            view,
          };
          const sent = evaluateTask(compiled.model, task, urls).value;
          const received = receivedLine(sent);
          expect(received.errors).toEqual(expected.errors);
          expect(received.warnings).toEqual(expected.warnings);
          const answer = lineWith(sent.line, { view, id: null, valid: sent.valid }, sent.problems);
          const line = JSON.parse(text(sent.line)) as Record<string, unknown>;
          const members = { view, id: null, valid: sent.valid };
          const whole = {
            ...line,
            ...members,
            errors: expected.errors,
            warnings: expected.warnings,
          };
          expect(withoutTiming(text(answer.bytes))).toBe(withoutTiming(JSON.stringify(whole)));
          problems += expected.errors.length + expected.warnings.length;
          lines++;
        }
      }
    }
    expect(lines).toBeGreaterThan(MODELS * 4);
    expect(problems).toBeGreaterThan(MODELS);
  });

  it('no members before the problems, and no problems', () => {
    const line = new TextEncoder().encode('{"a":1}');
    const none = new TextEncoder().encode('"errors":[],"warnings":[]');
    expect(text(lineWith(line, {}, none).bytes)).toBe('{"a":1,"errors":[],"warnings":[]}');
    // Without problems: the members alone, and none at all.
    expect(text(lineWith(line, { id: 5 }).bytes)).toBe('{"a":1,"id":5}');
    expect(text(lineWith(line, {}).bytes)).toBe('{"a":1}');
    const sent = { problems: none } as never;
    expect(receivedLine(sent).errors).toEqual([]);
  });
});
