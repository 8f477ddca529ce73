import { describe, expect, it } from 'vitest';

import {
  importedModelIds,
  mergeImports,
  readModelSource,
  type ImportedModel,
  type ModelSource,
  type SourceResult,
} from '../../../src/engine/source/index.js';
import { doorFiles, limits, makeZip } from './fixtures.js';

const source = (
  document: Record<string, unknown>,
  fragments: Record<string, Record<string, unknown>> = {},
  format: ModelSource['format'] = 'zip',
): ModelSource => ({
  document,
  fragments: new Map(Object.entries(fragments)),
  assets: new Map(),
  format,
});

const models = (...list: ImportedModel[]) => new Map(list.map((model) => [model.modelId, model]));

function merged(result: SourceResult<Record<string, unknown>>): Record<string, unknown> {
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
}
function refused(result: SourceResult<Record<string, unknown>>) {
  if (result.ok) throw new Error('expected a refusal');
  expect(result.status).toBe(400);
  return result.problems;
}
const keysOf = (list: unknown) => (list as Array<{ key: string }>).map((item) => item.key);

describe('mergeImports', () => {
  it('merges the door zip: hardware appended, translation merged, imports recorded', async () => {
    const read = await readModelSource(await makeZip(await doorFiles()), 'zip', limits());
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    const door = merged(mergeImports(read.value, new Map()));
    expect(keysOf(door.questions)).toEqual(['leaf_width', 'glass_panel', 'hinge_count', 'handle']);
    expect(keysOf(door.bom_items)).toEqual(['leaf', 'glass', 'hinges']);
    expect(door.translation).toEqual({ nl: { 'questions.handle.label': 'Kruk' } });
    expect(door.imports).toEqual([{ path: 'fragments/hardware.yaml' }]);
    expect(door.general).toMatchObject({ name: 'Exterior door' });
    expect(read.value.assets.get('images/door.svg')?.contentType).toBe('image/svg+xml');
    // The source document is left untouched.
    expect(read.value.document.questions).toHaveLength(2);
  });

  it('copies another model in, pinned to its version, ignoring its general', () => {
    const frame: ImportedModel = {
      modelId: 7,
      versionNumber: 3,
      document: {
        general: { name: 'Frame' },
        imports: [{ path: 'already/merged.yaml' }],
        questions: [{ key: 'frame', type: 'choice', options: [{ key: 'alu' }] }],
        rules: [{ key: 'frame_rule', assert: 'true', message: 'm' }],
        pricing: { base_price: '99.00', adjustments: [{ key: 'frame_fee', amount: '5' }] },
        translation: { de: { 'general.name': 'Rahmen', 'questions.frame.label': 'Rahmen' } },
      },
    };
    const root = {
      general: { name: 'Window' },
      imports: [{ model_id: 7 }],
      questions: [{ key: 'width', type: 'number' }],
      pricing: { base_price: '10.00' },
    };
    const window = merged(mergeImports(source(root, {}, 'json'), models(frame)));
    expect(window.imports).toEqual([{ model_id: 7, version_number: 3 }]);
    expect(keysOf(window.questions)).toEqual(['width', 'frame']);
    expect(keysOf(window.rules)).toEqual(['frame_rule']);
    expect(window.pricing).toEqual({
      base_price: '10.00',
      adjustments: [{ key: 'frame_fee', amount: '5' }],
    });
    expect(window.general).toEqual({ name: 'Window' });
    expect(window.translation).toEqual({ de: { 'questions.frame.label': 'Rahmen' } });
  });

  it('lets the root translation win, then earlier imports', () => {
    const root = {
      general: { name: 'x' },
      imports: [{ path: 'a.yaml' }, { path: 'b.yaml' }],
      translation: { nl: { 'questions.q.label': 'root' } },
    };
    const a = {
      questions: [{ key: 'qa' }],
      translation: { nl: { 'questions.q.label': 'a', 'questions.qa.label': 'A' } },
    };
    const b = {
      questions: [{ key: 'qb' }],
      translation: { nl: { 'questions.qa.label': 'B' }, fr: { 'questions.qb.label': 'Bf' } },
    };
    const result = merged(mergeImports(source(root, { 'a.yaml': a, 'b.yaml': b }), new Map()));
    expect(result.translation).toEqual({
      nl: { 'questions.q.label': 'root', 'questions.qa.label': 'A' },
      fr: { 'questions.qb.label': 'Bf' },
    });
    expect(result.imports).toEqual([{ path: 'a.yaml' }, { path: 'b.yaml' }]);
  });

  it('reports keys that collide after merging, naming the import and the key', () => {
    const root = {
      general: { name: 'x' },
      imports: [{ path: 'f.yaml' }, { model_id: 2 }],
      questions: [{ key: 'width' }],
      bom_items: [{ key: 'leaf', children: [{ key: 'screw' }] }],
    };
    const fragment = {
      variables: [{ key: 'width' }],
      bom_items: [{ key: 'screw' }],
      images: [{ key: 'i' }, { key: 'i' }],
    };
    const other: ImportedModel = {
      modelId: 2,
      versionNumber: 1,
      document: { general: {}, bom_items: [{ key: 'leaf' }] },
    };
    const problems = refused(mergeImports(source(root, { 'f.yaml': fragment }), models(other)));
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'duplicate_key',
        path: 'imports[0]',
        message: expect.stringContaining('"width"'),
      }),
      expect.objectContaining({
        code: 'duplicate_key',
        path: 'imports[0]',
        message: expect.stringContaining('image key "i"'),
      }),
      expect.objectContaining({
        code: 'duplicate_key',
        path: 'imports[1]',
        message: expect.stringContaining('BOM item key "leaf"'),
      }),
    ]);
  });

  it('reports every unresolvable import at its path', () => {
    const root = {
      general: { name: 'x' },
      imports: [
        { path: 'missing.yaml' },
        { model_id: 99 },
        { path: '../up.yaml' },
        { model_id: -1 },
        { path: 'a', model_id: 1 },
        'x',
      ],
    };
    const problems = refused(mergeImports(source(root), new Map()));
    expect(problems.map((problem) => `${problem.code} ${problem.path}`)).toEqual([
      'import_not_found imports[0].path',
      'unknown_model imports[1].model_id',
      'invalid_import imports[2].path',
      'invalid_import imports[3].model_id',
      'invalid_import imports[4]',
      'invalid_import imports[5]',
    ]);
  });

  it('refuses a path import when the body was not a zip', () => {
    const root = { general: { name: 'x' }, imports: [{ path: 'f.yaml' }] };
    expect(refused(mergeImports(source(root, {}, 'yaml'), new Map()))).toEqual([
      expect.objectContaining({ code: 'path_import_requires_zip', path: 'imports[0].path' }),
    ]);
  });

  it('refuses a fragment with imports of its own (imports are not recursive)', () => {
    const root = { general: { name: 'x' }, imports: [{ path: 'f.yaml' }] };
    const fragment = { imports: [{ path: 'g.yaml' }], questions: [] };
    expect(refused(mergeImports(source(root, { 'f.yaml': fragment }), new Map()))).toEqual([
      expect.objectContaining({ code: 'nested_import', path: 'imports[0]' }),
    ]);
  });

  it('refuses fragment sections that cannot be merged', () => {
    const root = { general: { name: 'x' }, imports: [{ path: 'f.yaml' }] };
    const fragment = {
      pricing: { base_price: '1' },
      rules: { key: 'not a list' },
      'x-note': 'kept out',
    };
    const codes = refused(mergeImports(source(root, { 'f.yaml': fragment }), new Map())).map(
      (problem) => problem.code,
    );
    expect(codes).toEqual(['unsupported_import_key', 'invalid_import']);
  });

  it('records an empty list when there is nothing to import', () => {
    const result = merged(
      mergeImports(source({ general: { name: 'x' }, questions: [] }), new Map()),
    );
    expect(result).toEqual({ general: { name: 'x' }, questions: [], imports: [] });
  });
});

describe('importedModelIds', () => {
  it('lists valid model ids once, in order', () => {
    const document = {
      imports: [
        { model_id: 5 },
        { path: 'a' },
        { model_id: 2 },
        { model_id: 5 },
        { model_id: '3' },
        { model_id: 1.5 },
      ],
    };
    expect(importedModelIds(document)).toEqual([5, 2]);
    expect(importedModelIds({ imports: 'nope' })).toEqual([]);
    expect(importedModelIds({})).toEqual([]);
  });
});
