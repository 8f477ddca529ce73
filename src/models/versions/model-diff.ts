import { isDeepStrictEqual } from 'node:util';

/** What a change touches, read from its path (docs/api.md "Model versions"). */
export type ChangeKind =
  | 'general'
  | 'import'
  | 'question'
  | 'option'
  | 'variable'
  | 'rule'
  | 'table_row'
  | 'trigger'
  | 'bom_item'
  | 'price'
  | 'translation'
  | 'image';

export interface ModelChange {
  change: 'added' | 'removed' | 'changed';
  kind: ChangeKind;
  /** Dotted path in the model document, list items by their `key` (`questions.frame.options.alu`). */
  path: string;
  /** The value before (absent when added). */
  from?: unknown;
  /** The value after (absent when removed). */
  to?: unknown;
}

/** Members whose change is a change of price, wherever they sit. */
const PRICE_MEMBERS = new Set([
  'price',
  'base_price',
  'unit_price',
  'price_expr',
  'amount',
  'percent',
]);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list whose items are objects with a string `key`: compared item by item, by key. */
const isKeyedList = (value: unknown[]): value is Json[] =>
  value.every((item) => isObject(item) && typeof item.key === 'string');

/**
 * Every difference between two model documents (merged definitions), in document order,
 * each with its path: questions and options, rules, the rows of compatibility tables,
 * BOM items, prices, translations and the rest. Keyed lists are compared by key, so a
 * reordering alone is no change; an item added or removed is one change with its whole
 * value. Stops after `max` changes (`truncated`).
 */
export function diffModels(
  before: Json,
  after: Json,
  max: number,
): { changes: ModelChange[]; truncated: boolean } {
  const changes: ModelChange[] = [];
  let truncated = false;
  const push = (change: Omit<ModelChange, 'kind'>) => {
    if (changes.length >= max) {
      truncated = true;
      return;
    }
    changes.push({ ...change, kind: kindOf(change.path) } as ModelChange);
  };

  const walk = (path: string, a: unknown, b: unknown): void => {
    if (truncated || isDeepStrictEqual(a, b)) return;
    if (isObject(a) && isObject(b)) {
      // Translation paths are keys with dots: they stay one segment.
      for (const key of union(Object.keys(a), Object.keys(b))) {
        const at = join(path, key);
        if (!(key in a)) push({ change: 'added', path: at, to: b[key] });
        else if (!(key in b)) push({ change: 'removed', path: at, from: a[key] });
        else walk(at, a[key], b[key]);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (path.endsWith('.allowed.rows')) return rows(path, a, b);
      if (isKeyedList(a) && isKeyedList(b)) return keyed(path, a, b);
    }
    push({ change: 'changed', path, from: a, to: b });
  };

  const keyed = (path: string, a: Json[], b: Json[]): void => {
    const before = new Map(a.map((item) => [item.key as string, item]));
    const after = new Map(b.map((item) => [item.key as string, item]));
    for (const key of union([...before.keys()], [...after.keys()])) {
      const at = `${path}.${key}`;
      if (!before.has(key)) push({ change: 'added', path: at, to: after.get(key) });
      else if (!after.has(key)) push({ change: 'removed', path: at, from: before.get(key) });
      else walk(at, before.get(key), after.get(key));
    }
  };

  // A compatibility table's rows are a set: each row added or removed, by its index.
  const rows = (path: string, a: unknown[], b: unknown[]): void => {
    const seen = (list: unknown[], row: unknown) => list.some((r) => isDeepStrictEqual(r, row));
    a.forEach((row, i) => {
      if (!seen(b, row)) push({ change: 'removed', path: `${path}[${i}]`, from: row });
    });
    b.forEach((row, i) => {
      if (!seen(a, row)) push({ change: 'added', path: `${path}[${i}]`, to: row });
    });
  };

  walk('', before, after);
  return { changes, truncated };
}

function kindOf(path: string): ChangeKind {
  const segments = path.split('.');
  const section = segments[0];
  const last = segments[segments.length - 1].replace(/\[\d+\]$/, '');
  if (section === 'translation') return 'translation';
  if (path.includes('.allowed.rows[')) return 'table_row';
  if (section === 'pricing' || PRICE_MEMBERS.has(last)) return 'price';
  switch (section) {
    case 'questions':
      return segments[2] === 'options' && segments.length >= 4 ? 'option' : 'question';
    case 'variables':
      return 'variable';
    case 'rules':
      return 'rule';
    case 'triggers':
      return 'trigger';
    case 'bom_items':
      return 'bom_item';
    case 'images':
      return 'image';
    case 'imports':
      return 'import';
    default:
      return 'general';
  }
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** a's keys, then b's new ones (a Set: models hold thousands of questions). */
function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}
