import type { CompiledGeneral, ImportRecord } from '../model-core.js';
import type { Validation } from './context.js';
import { childPath, isPositiveInteger, type JsonRecord } from './reader.js';

const GENERAL_KEYS = new Set([
  'name',
  'code',
  'description',
  'currency',
  'default_language',
  'valid_from',
  'valid_until',
]);
const CURRENCY_PATTERN = /^[A-Z]{3}$/;
export const LANGUAGE_PATTERN = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

interface ParsedDate {
  text: string;
  /** First and last millisecond the date covers (a whole UTC day for a plain date). */
  first: number;
  last: number;
}

function parseDate(
  v: Validation,
  record: JsonRecord,
  key: string,
  path: string,
): ParsedDate | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  const at = childPath(path, key);
  // js-yaml turns `2026-01-01` into a Date at UTC midnight: treat that as a plain date.
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    const iso = value.toISOString();
    if (iso.endsWith('T00:00:00.000Z')) return parseDateText(iso.slice(0, 10));
    return { text: iso, first: value.getTime(), last: value.getTime() };
  }
  const parsed = typeof value === 'string' ? parseDateText(value) : undefined;
  if (parsed === undefined) {
    return v.fail(
      'invalid_value',
      `${at} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp`,
      at,
    );
  }
  return parsed;
}

function parseDateText(text: string): ParsedDate | undefined {
  const plain = DATE_ONLY.exec(text);
  if (plain) {
    const first = Date.UTC(Number(plain[1]), Number(plain[2]) - 1, Number(plain[3]));
    if (new Date(first).toISOString().slice(0, 10) !== text) return undefined;
    return { text, first, last: first + 86_400_000 - 1 };
  }
  if (!DATE_TIME.test(text)) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : { text, first: time, last: time };
}

export function validateGeneral(v: Validation, value: unknown): CompiledGeneral | undefined {
  const path = 'general';
  if (value === undefined) return v.fail('required', 'general is required', path);
  const record = v.record(value, path);
  if (record === undefined) return undefined;
  v.allowKeys(record, GENERAL_KEYS, path);
  const name = v.text(record, 'name', path, true);
  const code = v.text(record, 'code', path);
  const description = v.text(record, 'description', path);
  let currency = v.string(record, 'currency', path) ?? 'EUR';
  if (!CURRENCY_PATTERN.test(currency)) {
    v.fail(
      'invalid_value',
      `currency '${currency}' must be an ISO 4217 code such as EUR`,
      `${path}.currency`,
    );
    currency = 'EUR';
  }
  let defaultLanguage = v.string(record, 'default_language', path) ?? 'en';
  if (!LANGUAGE_PATTERN.test(defaultLanguage)) {
    v.fail(
      'invalid_value',
      `default_language '${defaultLanguage}' is not a language code`,
      `${path}.default_language`,
    );
    defaultLanguage = 'en';
  }
  const validFrom = parseDate(v, record, 'valid_from', path);
  const validUntil = parseDate(v, record, 'valid_until', path);
  if (validFrom && validUntil && validFrom.first > validUntil.last) {
    v.fail('invalid_value', 'valid_until is before valid_from', `${path}.valid_until`);
  }
  return {
    name: name ?? '',
    nameSlot: v.texts.add('general.name', name ?? '', true),
    code,
    description,
    descriptionSlot: v.texts.addOptional('general.description', description, true),
    currency,
    defaultLanguage,
    validFrom: validFrom?.text,
    validUntil: validUntil?.text,
    validFromTime: validFrom?.first,
    validUntilTime: validUntil?.last,
  };
}

/** `imports` after merging: records of what was merged, echoed in every cart line. */
export function validateImports(v: Validation, value: unknown): ImportRecord[] {
  const list = v.optionalList(value, 'imports');
  const imports: ImportRecord[] = [];
  for (const [record, path] of v.records(list, 'imports')) {
    if ('path' in record) {
      v.allowKeys(record, new Set(['path']), path);
      const file = v.string(record, 'path', path, true);
      if (file !== undefined) imports.push({ path: file });
    } else if ('model_id' in record) {
      v.allowKeys(record, new Set(['model_id', 'version_number']), path);
      const modelId = record.model_id;
      const version = record.version_number;
      if (!isPositiveInteger(modelId)) {
        v.fail('invalid_type', 'model_id must be a positive integer', `${path}.model_id`);
      } else if (version !== undefined && !isPositiveInteger(version)) {
        v.fail(
          'invalid_type',
          'version_number must be a positive integer',
          `${path}.version_number`,
        );
      } else {
        imports.push(
          version === undefined
            ? { model_id: modelId }
            : { model_id: modelId, version_number: version },
        );
      }
    } else {
      v.fail('invalid_value', 'an import is {path} or {model_id, version_number}', path);
    }
  }
  return imports;
}
