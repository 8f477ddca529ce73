import { UNKNOWN } from '../cel/expression.js';
import type { CompatibilityTable, CompiledModel, CelValue } from '../model.js';
import type { EvaluationState } from './state.js';

/**
 * Each rule's `when`, once. A table restricts options only while its rule applies
 * (no `when`, or `when` true); a skipped or pending rule restricts nothing.
 */
export function gateRules(model: CompiledModel, state: EvaluationState): void {
  for (const rule of model.rules) {
    if (rule.when === undefined) continue;
    const when = rule.when.condition(state.context);
    state.ruleGate[rule.index] = when === UNKNOWN ? 'pending' : when ? 'applies' : 'skipped';
  }
}

/**
 * Step 3: option availability. An option is unavailable when its available_if is
 * false (unknown counts as true; the option's own key is the reason) or when a
 * table of an applying rule has no row with that option that is compatible with the
 * other answered columns (the rule's key is the reason). One pass over each table's
 * rows: a row compatible with all answered columns offers all its cells; a row
 * that differs in exactly one answered column offers that column's cell.
 */
export function computeAvailability(model: CompiledModel, state: EvaluationState): void {
  for (const rule of model.rules) {
    if (rule.table === undefined || state.ruleGate[rule.index] !== 'applies') continue;
    const offered = offeredByTable(rule.table, state.values);
    state.tableMatched[rule.index] = offered.matched;
    const columns = rule.table.columns;
    for (let c = 0; c < columns.length; c++) {
      const options = model.questions[columns[c]].options;
      const cells = offered.cells[c];
      for (let o = 0; o < options.length; o++) {
        if (!cells.has(options[o].key)) addReason(state, columns[c], options.length, o, rule.key);
      }
    }
  }
  for (const question of model.optionConditions) {
    const options = question.options;
    for (let o = 0; o < options.length; o++) {
      const condition = options[o].availableIf;
      if (condition !== undefined && condition.condition(state.context) === false) {
        addReason(state, question.index, options.length, o, options[o].key);
      }
    }
  }
}

function addReason(
  state: EvaluationState,
  question: number,
  optionCount: number,
  option: number,
  reason: string,
): void {
  const reasons = (state.unavailableBecause[question] ??= new Array<string[] | undefined>(
    optionCount,
  ).fill(undefined));
  const list = reasons[option];
  if (list === undefined) reasons[option] = [reason];
  else list.push(reason);
}

interface Offered {
  /** Some row matches every answered column. */
  matched: boolean;
  /** Per column: the cell values some compatible row offers. */
  cells: Array<Set<CelValue>>;
}

function offeredByTable(
  table: CompatibilityTable,
  values: ReadonlyArray<CelValue | null>,
): Offered {
  const columnValues = table.columns.map((column) => values[column]);
  const cells = table.columns.map(() => new Set<CelValue>());
  let matched = false;
  for (const row of table.rows) {
    let mismatches = 0;
    let mismatchAt = -1;
    for (let c = 0; c < row.length && mismatches < 2; c++) {
      const value = columnValues[c];
      if (value !== null && value !== row[c]) {
        mismatches++;
        mismatchAt = c;
      }
    }
    if (mismatches === 0) {
      matched = true;
      for (let c = 0; c < row.length; c++) cells[c].add(row[c]);
    } else if (mismatches === 1) {
      cells[mismatchAt].add(row[mismatchAt]);
    }
  }
  return { matched, cells };
}
