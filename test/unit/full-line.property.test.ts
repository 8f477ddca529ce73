import { describe, expect, it } from 'vitest';
import { generateModel } from '../../tools/gen-model.mjs';
import {
  compileDocument,
  describeModel,
  evaluate,
  type CartLine,
  type CompiledModel,
  type LineRule,
} from '../../src/engine/work.js';
import type { CompactLine, Line } from '../../web/src/api.js';
import { fullLine, OtherVersion, ruleMessage } from '../../web/src/full-line.js';
import { prng } from '../engine/consistency/random-model.js';
import { pricedModel } from '../engine/evaluate/guided-models.js';
import { randomAnswers, randomModelWithBom } from '../engine/evaluate/random-configurations.js';
import { compileOk, windowDocument } from '../engine/helpers.js';

/**
 * The configure page's line (web/src/full-line.ts, docs/adr/0224): the compact view made
 * whole with the model's description equals the full view of the same answers, but for
 * the rules and triggers, which stay as the compact view has them; and every rule message
 * the page may show (an unavailable option's reasons, a conflict's rules) is the full
 * view's. Lines and description cross JSON as on the wire.
 */
const wire = <T>(value: unknown): T => JSON.parse(JSON.stringify(value)) as T;
const VERSION = 3;

interface Seen {
  compared: number;
  unavailable: number;
  priced: number;
  children: number;
  messages: number;
}

function expectRebuilt(
  model: CompiledModel,
  questions: unknown,
  languageCode: string | null,
  seen: Seen,
  label: string,
): void {
  const request = { modelId: 1, versionNumber: VERSION, questions, languageCode };
  const full = wire<CartLine>(evaluate(model, { ...request, view: 'full' }).line);
  const compact = wire<CompactLine>({
    ...evaluate(model, { ...request, view: 'compact' }).line,
    view: 'compact',
  });
  const description = wire<Parameters<typeof fullLine>[1]>({
    ...describeModel(model, languageCode),
    version_number: VERSION,
  });
  const rebuilt = fullLine(compact, description);
  const kept = (rule: LineRule) => rule.status === 'failed' || rule.status === 'pending';
  const expected = {
    ...full,
    view: 'full',
    rules: full.rules.filter(kept),
    triggers: full.triggers.filter((trigger) => trigger.fired),
    cache: { ...full.cache, evaluated_in_ms: 0 },
  };
  expect({ ...rebuilt, cache: { ...rebuilt.cache, evaluated_in_ms: 0 } }, label).toEqual(expected);
  // The messages the page shows: the full view's for every rule with a message of its own
  // (or listed), none for the others (the page says "not offered in this combination").
  for (const rule of full.rules) {
    const shown = rule.message !== rule.key || kept(rule) ? rule.message : undefined;
    expect(ruleMessage(rebuilt, description, rule.key), `${label} ${rule.key}`).toBe(shown);
    if (shown !== undefined && !kept(rule)) seen.messages++;
  }
  seen.compared++;
  const options = (rebuilt as Line).questions.flatMap((q) => q.options ?? []);
  if (options.some((o) => !o.available)) seen.unavailable++;
  if (options.some((o) => o.price_from !== undefined)) seen.priced++;
  if (rebuilt.bom_items.some((item) => item.children.length > 0)) seen.children++;
}

const fresh = (): Seen => ({ compared: 0, unavailable: 0, priced: 0, children: 0, messages: 0 });

describe('the configure page rebuilds the full line from the compact view and the description', () => {
  it('on random small models with nested BOM items and random answers', () => {
    const seen = fresh();
    for (let seed = 1; seed <= 120; seed++) {
      const random = prng(seed);
      const document = randomModelWithBom(random);
      const compiled = compileDocument(document);
      if (!compiled.ok) continue;
      for (let i = 0; i < 4; i++)
        expectRebuilt(compiled.model, randomAnswers(random, document), null, seen, `${seed}/${i}`);
    }
    expect(seen.compared).toBeGreaterThan(300);
    expect(seen.unavailable).toBeGreaterThan(50);
    expect(seen.children).toBeGreaterThan(20);
  });

  it('on random priced models: the options’ price bounds', () => {
    const seen = fresh();
    for (let seed = 1; seed <= 40; seed++) {
      const random = prng(1000 + seed);
      const { document } = pricedModel(random, seed % 2 === 0 ? 'decomposable' : 'other');
      const compiled = compileDocument(document);
      if (!compiled.ok) continue;
      for (let i = 0; i < 3; i++)
        expectRebuilt(compiled.model, randomAnswers(random, document), null, seen, `${seed}/${i}`);
    }
    expect(seen.compared).toBeGreaterThan(80);
    expect(seen.priced).toBeGreaterThan(40);
  });

  it('on the window example in three languages: rule messages, hidden answers, BOM children', () => {
    const model = compileOk(windowDocument());
    const seen = fresh();
    const configurations: Array<Record<string, unknown>> = [
      {},
      { width: { values: [1200] }, height: { values: [1000] }, frame: { values: ['alu'] } },
      { width: { values: [2600] }, frame: { values: ['wood'] }, color: { values: ['black'] } },
      { frame: { values: ['pvc'] }, engraving: { values: ['hidden'] } },
      { width: { values: [2400] }, frame: { values: ['alu'] }, extras: { values: ['lock'] } },
    ];
    for (const [i, questions] of configurations.entries())
      for (const language of [null, 'nl', 'xx'])
        expectRebuilt(model, questions, language, seen, `${i}`);
    expect(seen.messages).toBeGreaterThan(0);
    expect(seen.unavailable).toBeGreaterThan(0);
  });

  it('on a generated model with fired triggers and failed rules', () => {
    const { model: document, answers } = generateModel(60);
    const model = compileOk(document);
    const seen = fresh();
    const fired = { ...answers, q00000: { values: ['o3'] }, q00003: { values: [9000] } };
    for (const questions of [{}, answers, fired])
      expectRebuilt(model, questions, null, seen, 'gen');
    expect(seen.compared).toBe(3);
  });

  it('refuses a description of another version, or one without the line’s questions', () => {
    const model = compileOk(windowDocument());
    const request = { modelId: 1, versionNumber: VERSION, questions: {}, view: 'compact' as const };
    const compact = wire<CompactLine>({ ...evaluate(model, request).line, view: 'compact' });
    const description = { ...describeModel(model), version_number: VERSION };
    const newer = { ...description, version_number: VERSION + 1 };
    expect(() => fullLine(compact, wire(newer))).toThrow(OtherVersion);
    const fewer = { ...description, questions: description.questions.slice(1) };
    expect(() => fullLine(compact, wire(fewer))).toThrow(OtherVersion);
    expect(fullLine(compact, wire(description)).questions).toHaveLength(
      description.questions.length,
    );
  });
});
