import { ProblemList } from '../problems.js';
import { isPositiveInteger } from './record.js';
import type { ModelSourceFormat } from './content-type.js';
import { invalid, ok, type SourceResult } from './result.js';
import { unsafePathReason } from './paths.js';

/** What readModelSource produces: the root document and the zip files it may import. */
export interface ModelSource {
  document: Record<string, unknown>;
  fragments: Map<string, Record<string, unknown>>;
  assets: Map<string, ModelAsset>;
  /** The upload's format; a `{path}` import needs a zip. Absent: not checked. */
  format?: ModelSourceFormat;
}

export interface ModelAsset {
  bytes: Buffer;
  contentType: string;
}

/** Another model's current, already merged definition, as the service loaded it. */
export interface ImportedModel {
  modelId: number;
  versionNumber: number;
  document: Record<string, unknown>;
}

type Section = 'questions' | 'variables' | 'rules' | 'triggers' | 'bom_items' | 'images';
const SECTIONS: readonly Section[] = [
  'questions',
  'variables',
  'rules',
  'triggers',
  'bom_items',
  'images',
];
/** Key namespaces: question and variable keys share one (docs/model-format.md). */
const NAMESPACE: Readonly<Record<Section | 'adjustments', string>> = {
  questions: 'question/variable',
  variables: 'question/variable',
  rules: 'rule',
  triggers: 'trigger',
  bom_items: 'BOM item',
  images: 'image',
  adjustments: 'pricing adjustment',
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets an own data property, even for a key named `__proto__`. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Ids named by `imports[].model_id`, in order and without repeats, for the service to load. */
export function importedModelIds(document: Record<string, unknown>): number[] {
  const imports = document.imports;
  if (!Array.isArray(imports)) return [];
  const ids = imports.filter(isRecord).map((entry) => entry.model_id);
  return [...new Set(ids.filter(isPositiveInteger))];
}

/**
 * The root document with its imports merged in, in import order: each import's lists are
 * appended to the root's, its translations fill the gaps of the root's (the root, then
 * earlier imports, win), and `imports` becomes the record of what was merged. Imports are
 * not recursive: a fragment with `imports` is an error; an imported model is already merged.
 * An imported model's `general` (and its `general.*` translations) and its other sections
 * are ignored; a fragment may only hold the mergeable sections and `x-` keys.
 */
export function mergeImports(
  source: ModelSource,
  importedModels: Map<number, ImportedModel>,
): SourceResult<Record<string, unknown>> {
  const root = source.document;
  const problems = new ProblemList();
  const imports = root.imports ?? [];
  if (!Array.isArray(imports))
    return invalid([
      { code: 'invalid_import', message: 'imports must be a list', path: 'imports' },
    ]);

  const owners = new Map<string, string>(); // `${namespace}\u0000${key}` → who defined it
  const lists = new Map<Section | 'adjustments', unknown[]>();
  const rootPricing = root.pricing;
  const rootLists: Array<[Section | 'adjustments', unknown]> = [
    ...SECTIONS.map((section): [Section, unknown] => [section, root[section]]),
    ['adjustments', isRecord(rootPricing) ? rootPricing.adjustments : undefined],
  ];
  for (const [section, list] of rootLists) {
    if (list !== undefined && !Array.isArray(list)) continue; // malformed root: the validator reports it
    lists.set(section, [...(list ?? [])]);
    for (const item of list ?? []) {
      const key = isRecord(item) ? item.key : undefined;
      const id = `${NAMESPACE[section]}\u0000${String(key)}`;
      if (typeof key === 'string' && !owners.has(id)) owners.set(id, 'the model');
    }
  }
  const translation = new Map<string, Record<string, unknown>>();
  const rootTranslation = root.translation;
  if (isRecord(rootTranslation)) {
    for (const [language, texts] of Object.entries(rootTranslation)) {
      if (isRecord(texts)) translation.set(language, { ...texts });
    }
  }

  const record: Array<Record<string, unknown>> = [];
  imports.forEach((entry: unknown, index: number) => {
    const at = `imports[${index}]`;
    const resolved = resolveImport(entry, at, source, importedModels, problems);
    if (resolved === null) return;
    record.push(resolved.record);
    const { document, label, fragment } = resolved;
    for (const [name, value] of Object.entries(document)) {
      if (name === 'general' || name.startsWith('x-')) continue;
      if (name === 'imports') {
        if (fragment)
          problems.add(
            'nested_import',
            `${label} has its own imports; imports are not recursive`,
            at,
          );
        continue;
      }
      if ((SECTIONS as readonly string[]).includes(name)) {
        append(name as Section, value);
      } else if (name === 'pricing' && isRecord(value)) {
        for (const [pricingKey, pricingValue] of Object.entries(value)) {
          if (pricingKey === 'adjustments') append('adjustments', pricingValue);
          else if (fragment)
            problems.add(
              'unsupported_import_key',
              `${label}: a fragment cannot set pricing.${pricingKey}`,
              at,
            );
        }
      } else if (name === 'translation' && isRecord(value)) {
        mergeTranslation(value);
      } else if (fragment) {
        problems.add(
          'unsupported_import_key',
          `${label}: "${name}" cannot be imported from a fragment`,
          at,
        );
      }
    }

    function append(section: Section | 'adjustments', value: unknown): void {
      const where = section === 'adjustments' ? 'pricing.adjustments' : section;
      if (!Array.isArray(value)) {
        problems.add('invalid_import', `${label}: ${where} must be a list`, at);
        return;
      }
      for (const item of value) {
        const key = isRecord(item) ? item.key : undefined;
        if (typeof key === 'string') {
          const id = `${NAMESPACE[section]}\u0000${key}`;
          const owner = owners.get(id);
          if (owner !== undefined) {
            const by = owner === at ? `earlier in ${label}` : `by ${owner}`;
            problems.add(
              'duplicate_key',
              `${NAMESPACE[section]} key "${key}" from ${label} is already defined ${by}`,
              at,
            );
          } else {
            owners.set(id, at);
          }
        }
      }
      lists.get(section)?.push(...value);
    }

    function mergeTranslation(value: Record<string, unknown>): void {
      for (const [language, texts] of Object.entries(value)) {
        if (!isRecord(texts)) {
          problems.add('invalid_import', `${label}: translation.${language} must be a mapping`, at);
          continue;
        }
        const target = translation.get(language) ?? {};
        translation.set(language, target);
        for (const [path, text] of Object.entries(texts)) {
          // An import's general is not merged, so neither are its texts; earlier texts win.
          if (path.startsWith('general.') || Object.hasOwn(target, path)) continue;
          setOwn(target, path, text);
        }
      }
    }
  });
  if (!problems.empty) return invalid(problems.items);

  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(root)) setOwn(merged, key, value);
  for (const section of SECTIONS) {
    const list = lists.get(section);
    if (list !== undefined && (root[section] !== undefined || list.length > 0))
      setOwn(merged, section, list);
  }
  const adjustments = lists.get('adjustments');
  if (adjustments !== undefined && adjustments.length > 0) {
    if (rootPricing === undefined) merged.pricing = { adjustments };
    else if (isRecord(rootPricing)) merged.pricing = { ...rootPricing, adjustments };
  }
  if (translation.size > 0 && (rootTranslation === undefined || isRecord(rootTranslation))) {
    const texts: Record<string, unknown> = isRecord(rootTranslation) ? { ...rootTranslation } : {};
    for (const [language, values] of translation) setOwn(texts, language, values);
    merged.translation = texts;
  }
  merged.imports = record;
  return ok(merged);
}

interface ResolvedImport {
  document: Record<string, unknown>;
  label: string;
  fragment: boolean;
  record: Record<string, unknown>;
}

function resolveImport(
  entry: unknown,
  at: string,
  source: ModelSource,
  importedModels: Map<number, ImportedModel>,
  problems: ProblemList,
): ResolvedImport | null {
  if (!isRecord(entry)) {
    problems.add('invalid_import', 'an import must be a mapping with path or model_id', at);
    return null;
  }
  const keys = Object.keys(entry);
  const extra = keys.filter((key) => key !== 'path' && key !== 'model_id');
  if (extra.length > 0 || keys.length !== 1) {
    problems.add('invalid_import', 'an import has exactly one key: path or model_id', at);
    return null;
  }
  if ('path' in entry) {
    const path = entry.path;
    const where = `${at}.path`;
    if (typeof path !== 'string') {
      problems.add('invalid_import', 'path must be a string', where);
      return null;
    }
    if (source.format !== undefined && source.format !== 'zip') {
      problems.add(
        'path_import_requires_zip',
        `"${path}" can only be imported from a zip upload`,
        where,
      );
      return null;
    }
    const reason = unsafePathReason(path);
    if (reason !== null) {
      problems.add('invalid_import', `path "${path}" ${reason}`, where);
      return null;
    }
    const document = source.fragments.get(path);
    if (document === undefined) {
      problems.add('import_not_found', `"${path}" is not a fragment file in the zip`, where);
      return null;
    }
    return { document, label: path, fragment: true, record: { path } };
  }
  const id = entry.model_id;
  const where = `${at}.model_id`;
  if (!isPositiveInteger(id)) {
    problems.add('invalid_import', 'model_id must be a positive integer', where);
    return null;
  }
  const model = importedModels.get(id);
  if (model === undefined) {
    problems.add(
      'unknown_model',
      `model ${id} does not exist or belongs to another supplier`,
      where,
    );
    return null;
  }
  return {
    document: model.document,
    label: `model ${id}`,
    fragment: false,
    record: { model_id: id, version_number: model.versionNumber },
  };
}
