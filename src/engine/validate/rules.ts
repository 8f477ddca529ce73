import type {
  CompatibilityTable,
  CompiledQuestion,
  CompiledRule,
  CelValue,
} from '../model-core.js';
import { indexTable } from './table-index.js';
import { convertElement } from '../question-values.js';
import type { Validation } from './context.js';
import { LOGICAL_RULE_KEYS, readLogicalRule } from './logical-rules.js';
import { childPath, type JsonRecord, SECTION_KEY_PATTERN } from './reader.js';

const RULE_KEYS = new Set([
  'key',
  'when',
  'severity',
  'message',
  'assert',
  'allowed',
  ...LOGICAL_RULE_KEYS,
]);
const TABLE_KEYS = new Set(['columns', 'rows']);

export function validateRules(
  v: Validation,
  value: unknown,
  questionIndex: ReadonlyMap<string, number>,
  questions: readonly CompiledQuestion[],
): CompiledRule[] {
  const list = v.optionalList(value, 'rules');
  const seen = new Set<string>();
  const rules: CompiledRule[] = [];
  for (const [record, path] of v.records(list, 'rules')) {
    v.allowKeys(record, RULE_KEYS, path);
    const key = v.key(record, path, SECTION_KEY_PATTERN, 'rule');
    const when = v.expr(record, 'when', path);
    const severity = record.severity ?? 'error';
    if (severity !== 'error' && severity !== 'warning') {
      v.fail('invalid_value', 'severity must be error or warning', childPath(path, 'severity'));
    }
    const logicalMember = LOGICAL_RULE_KEYS.find((member) => record[member] !== undefined);
    // A logical rule may go without a message (its key is shown): a feature model's
    // tens of thousands of clauses have none to give.
    const message = v.text(record, 'message', path, logicalMember === undefined);
    const hasTable = record.allowed !== undefined;
    const kinds = ['assert', 'allowed', ...LOGICAL_RULE_KEYS].filter(
      (member) => record[member] !== undefined,
    );
    if (kinds.length !== 1) {
      v.fail(
        'invalid_value',
        'a rule has exactly one of assert, allowed, clause, at_least, at_most, requires or excludes',
        path,
      );
    }
    const assert = v.expr(record, 'assert', path);
    const table = hasTable
      ? readTable(v, record.allowed, childPath(path, 'allowed'), questionIndex, questions)
      : undefined;
    const logic =
      logicalMember === undefined
        ? undefined
        : readLogicalRule(v, record, logicalMember, path, questionIndex, questions);
    if (key === undefined || !v.unique(seen, key, path, 'rule')) continue;
    rules.push({
      index: rules.length,
      key,
      when,
      severity: severity === 'warning' ? 'warning' : 'error',
      messageSlot: v.texts.add(`rules.${key}.message`, message ?? key, true),
      assert,
      table,
      ...(logic === undefined ? {} : { logic }),
    });
  }
  return rules;
}

/** A compatibility table; cells become CEL values of their column's question. */
function readTable(
  v: Validation,
  value: unknown,
  path: string,
  questionIndex: ReadonlyMap<string, number>,
  questions: readonly CompiledQuestion[],
): CompatibilityTable | undefined {
  const record: JsonRecord | undefined = v.record(value, path);
  if (record === undefined) return undefined;
  v.allowKeys(record, TABLE_KEYS, path);
  const columnsPath = childPath(path, 'columns');
  const columnList = v.list(record.columns, columnsPath) ?? [];
  if (columnList.length === 0)
    v.fail('invalid_value', 'a table needs at least one column', columnsPath);
  const columns: number[] = [];
  columnList.forEach((column, i) => {
    const at = childPath(columnsPath, i);
    const index = typeof column === 'string' ? questionIndex.get(column) : undefined;
    if (index === undefined) {
      v.fail('unknown_reference', `column '${String(column)}' is not a question`, at);
    } else if (questions[index].type === 'multi_choice') {
      v.fail(
        'invalid_value',
        `column '${String(column)}' is a multi_choice question; tables take single-value questions`,
        at,
      );
    } else if (columns.includes(index)) {
      v.fail('duplicate_key', `column '${String(column)}' is listed twice`, at);
    } else {
      columns.push(index);
    }
  });
  const rowsPath = childPath(path, 'rows');
  const rowList = v.list(record.rows, rowsPath) ?? [];
  if (rowList.length === 0) v.fail('invalid_value', 'a table needs at least one row', rowsPath);
  if (columns.length !== columnList.length) return undefined;
  const rows: CelValue[][] = [];
  rowList.forEach((row, r) => {
    const rowPath = childPath(rowsPath, r);
    const cells = v.list(row, rowPath);
    if (cells === undefined) return;
    if (cells.length !== columns.length) {
      v.fail(
        'invalid_value',
        `row has ${cells.length} cells for ${columns.length} columns`,
        rowPath,
      );
      return;
    }
    const converted: CelValue[] = [];
    cells.forEach((cell, c) => {
      const result = convertElement(questions[columns[c]], cell);
      if (result.ok) converted.push(result.value);
      else
        v.fail(
          'invalid_value',
          `${questions[columns[c]].key}: ${result.message}`,
          childPath(rowPath, c),
        );
    });
    if (converted.length === columns.length) rows.push(converted);
  });
  return indexTable(columns, rows, questions);
}
