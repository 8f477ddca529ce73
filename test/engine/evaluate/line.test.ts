import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION } from '../../../src/engine/work.js';
import { evaluateConfiguration } from '../../../src/engine/evaluate/evaluate.js';
import { answers, compileOk, evaluate, model, question, windowDocument } from '../helpers.js';

describe('translation', () => {
  const compiled = compileOk(
    model({
      general: { name: 'Door', description: 'A door', default_language: 'de' },
      questions: [
        { key: 'color', type: 'choice', label: 'Color', options: [{ key: 'red', label: 'Red' }] },
        { key: 'size', type: 'integer', label: 'Size' },
      ],
      bom_items: [{ key: 'leaf', sku: 'L', description: 'Leaf' }],
      images: [{ key: 'pic', src: 'a.svg', alt: 'Picture' }],
      translation: {
        de: {
          'general.name': 'Tür',
          'questions.color.label': 'Farbe',
          'questions.size.label': 'Größe',
        },
        nl: {
          'general.name': 'Deur',
          'questions.color.label': 'Kleur',
          'images.pic.alt': 'Plaatje',
        },
      },
    }),
  );

  it('uses the requested language', () => {
    const result = evaluate(compiled, {}, { languageCode: 'nl' });
    expect(result.line.general.name).toBe('Deur');
    expect(question(result, 'color').label).toBe('Kleur');
    expect(result.line.images[0].alt).toBe('Plaatje');
  });

  it('falls back to default_language, then to the model text, and lists what is missing', () => {
    const result = evaluate(compiled, {}, { languageCode: 'nl' });
    expect(question(result, 'size').label).toBe('Größe'); // default language (de)
    expect(question(result, 'color').options?.[0].label).toBe('Red'); // model text
    expect(result.line.translation).toEqual({
      language: 'nl',
      fallback_used: true,
      missing: [
        'general.description',
        'questions.color.options.red.label',
        'questions.size.label',
        'bom_items.leaf.description',
      ],
    });
  });

  it('without a language code, the default language is used and nothing is missing', () => {
    const result = evaluate(compiled, {});
    expect(result.line.general.name).toBe('Tür');
    expect(result.line.translation).toEqual({ language: 'de', fallback_used: false, missing: [] });
  });

  it('an unknown language falls back wholesale to the default language', () => {
    const result = evaluate(compiled, {}, { languageCode: 'fr' });
    expect(result.line.general.name).toBe('Tür');
    expect(result.line.translation).toEqual({ language: 'de', fallback_used: true, missing: [] });
  });

  it('matches language codes case-insensitively', () => {
    expect(evaluate(compiled, {}, { languageCode: 'NL' }).line.general.name).toBe('Deur');
  });
});

describe('images', () => {
  const compiled = compileOk(
    model({
      questions: [{ key: 'on', type: 'boolean', label: 'On' }],
      images: [
        { key: 'top', src: 'img/top layer.svg', layer: 2 },
        { key: 'base', src: 'https://cdn.example.com/base.svg' },
        { key: 'mid_a', src: 'img/a.svg', layer: 1, alt: 'A' },
        { key: 'mid_b', src: 'img/b.svg', layer: 1, when: 'on' },
        { key: 'below', src: 'img/c.svg', layer: -1, when: '!on' },
      ],
    }),
  );

  it('includes images by `when`, ordered by layer (stable within a layer), with URLs', () => {
    const result = evaluate(compiled, { on: true });
    expect(result.line.images).toEqual([
      { key: 'base', url: 'https://cdn.example.com/base.svg', layer: 0, alt: null },
      { key: 'mid_a', url: '/v1/models/7/assets/img/a.svg', layer: 1, alt: 'A' },
      { key: 'mid_b', url: '/v1/models/7/assets/img/b.svg', layer: 1, alt: null },
      { key: 'top', url: '/v1/models/7/assets/img/top%20layer.svg', layer: 2, alt: null },
    ]);
    expect(evaluate(compiled, { on: false }).line.images.map((i) => i.key)).toEqual([
      'below',
      'base',
      'mid_a',
      'top',
    ]);
  });
});

describe('validity period', () => {
  const compiled = compileOk({
    general: { name: 'X', valid_from: '2026-01-01', valid_until: '2026-06-30' },
  });
  const at = (iso: string) =>
    evaluateConfiguration(compiled, {
      modelId: 1,
      versionNumber: 1,
      questions: {},
      now: new Date(iso),
    });

  it('is valid from the first to the last day inclusive (UTC)', () => {
    expect(at('2026-01-01T00:00:00Z').valid).toBe(true);
    expect(at('2026-06-30T23:59:59.999Z').valid).toBe(true);
  });

  it('is not valid outside, with model_not_valid', () => {
    expect(at('2025-12-31T23:59:59Z').errors).toEqual([
      {
        code: 'model_not_valid',
        message: 'the model is valid from 2026-01-01',
        path: 'general.valid_from',
      },
    ]);
    expect(at('2026-07-01T00:00:00Z').errors[0]).toMatchObject({
      code: 'model_not_valid',
      path: 'general.valid_until',
    });
  });

  it('accepts dates parsed by YAML (Date objects) and timestamps', () => {
    const fromYaml = compileOk({
      general: { name: 'X', valid_until: new Date('2026-06-30T00:00:00Z') },
    });
    expect(fromYaml.general.validUntil).toBe('2026-06-30');
    const stamped = compileOk({ general: { name: 'X', valid_from: '2026-01-01T12:00:00+02:00' } });
    expect(stamped.general.validFromTime).toBe(Date.parse('2026-01-01T10:00:00Z'));
  });
});

describe('the cart line', () => {
  const window = compileOk(windowDocument());
  const request = {
    modelId: 12,
    versionNumber: 4,
    questions: answers({ width: 1200, height: 1000, color: 'white' }),
  };

  it('has every member of docs/model-format.md except id', () => {
    const line = evaluateConfiguration(window, request).line;
    expect(Object.keys(line).sort()).toEqual(
      [
        'bom_items',
        'cache',
        'consistency',
        'displayed_variables',
        'general',
        'images',
        'imports',
        'price_bounds',
        'price_range',
        'pricing',
        'questions',
        'rules',
        'translation',
        'triggers',
        'variables',
        'version_number',
      ].sort(),
    );
    expect(line.version_number).toBe(4);
    expect(line.general).toEqual({
      model_id: 12,
      name: 'Casement window',
      code: 'WIN-CASEMENT',
      description: 'Made-to-measure casement window',
      currency: 'EUR',
      default_language: 'en',
    });
    expect(line.questions[0]).toEqual({
      key: 'width',
      type: 'integer',
      label: 'Width',
      visible: true,
      required: true,
      values: [1200],
      source: 'user',
      discarded: [],
      suppressed: [],
      // An integer with min and max is finite: its values' availability (issue #6).
      unavailable_values: [],
      // Its admissible values given the other answers, as intervals (issue #38).
      allowed: [[400, 2400]],
    });
    expect(line.consistency.exact).toBe(true);
    expect(line.consistency.configurations).toMatch(/^[1-9][0-9]*$/);
    expect(line.cache.engine_version).toBe(ENGINE_VERSION);
    expect(line.cache.evaluated_in_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(JSON.stringify(line))).toEqual(line);
  });

  it('is deterministic: same model version, answers and language → same line', () => {
    const strip = (value: ReturnType<typeof evaluateConfiguration>) => ({
      ...value,
      line: { ...value.line, cache: { ...value.line.cache, evaluated_in_ms: 0 } },
    });
    const reordered = {
      ...request,
      questions: answers({ color: 'white', height: 1000, width: 1200 }),
    };
    expect(strip(evaluateConfiguration(window, request))).toEqual(
      strip(evaluateConfiguration(window, reordered)),
    );
  });

  it('fingerprints model id, version, canonical answers and language', () => {
    const fp = (change: Partial<typeof request> & { languageCode?: string }) =>
      evaluateConfiguration(window, { ...request, ...change }).line.cache.fingerprint;
    const base = fp({});
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(fp({ questions: answers({ color: 'white', width: 1200, height: 1000 }) })).toBe(base);
    expect(fp({ languageCode: 'en' })).toBe(base); // the default language, named or not
    expect(
      new Set([
        base,
        fp({ modelId: 13 }),
        fp({ versionNumber: 5 }),
        fp({ languageCode: 'nl' }),
        fp({ questions: answers({ width: 1210 }) }),
      ]).size,
    ).toBe(5);
  });

  it('gives the same line whatever was evaluated before (the context is reused)', () => {
    const fresh = compileOk(windowDocument());
    const expected = evaluateConfiguration(fresh, request);
    evaluateConfiguration(window, {
      ...request,
      questions: answers({
        width: 2000,
        height: 1600,
        frame: 'wood',
        color: 'oak',
        engraving: 'x',
      }),
    });
    const again = evaluateConfiguration(window, request);
    expect(again.line.variables).toEqual(expected.line.variables);
    expect(again.line.pricing).toEqual(expected.line.pricing);
    expect(again.line.questions).toEqual(expected.line.questions);
  });

  it('survives a re-entrant evaluation from inside a callback', () => {
    const doorLike = compileOk(
      model({
        questions: [{ key: 'on', type: 'boolean', label: 'On' }],
        images: [{ key: 'pic', src: 'a.svg', when: 'on' }],
      }),
    );
    let inner: boolean | undefined;
    const outer = evaluateConfiguration(doorLike, {
      modelId: 1,
      versionNumber: 1,
      questions: answers({ on: true }),
      assetUrl: (path) => {
        const nested = evaluateConfiguration(doorLike, {
          modelId: 1,
          versionNumber: 1,
          questions: answers({ on: false }),
        });
        inner = nested.line.images.length === 0;
        return `/x/${path}`;
      },
    });
    expect(inner).toBe(true);
    expect(outer.line.images).toEqual([{ key: 'pic', url: '/x/a.svg', layer: 0, alt: null }]);
    expect(outer.line.questions[0].values).toEqual([true]);
  });

  it('does not share mutable state between evaluations', () => {
    const first = evaluateConfiguration(window, request);
    evaluateConfiguration(window, {
      ...request,
      questions: answers({ width: 2000, height: 2000, frame: 'alu', color: 'white' }),
    });
    expect(first.line.pricing.total).toBe('253.44');
    expect(question(first, 'glazing').values).toEqual(['double']);
  });
});
