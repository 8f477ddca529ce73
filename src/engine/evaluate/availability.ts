import { UNKNOWN } from '../cel/expression.js';
import type { CompatibilityTable, CompiledModel, CelValue } from '../model.js';
import { prepareForm } from '../consistency/prepared.js';
import { logicalRuleReasons } from './logical-rule.js';
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

/** Row fit: every answered column matches. */
const FITS = -1;
/** Row fit: two or more answered columns differ. */
const FAR = -2;

/**
 * Step 3: option availability. An option is unavailable when its available_if is
 * false (unknown counts as true; the option's own key is the reason) or when a
 * table of an applying rule has no row with that option that is compatible with the
 * other answered columns (the rule's key is the reason). Per table, one pass over
 * the rows computes how each row fits (fits / differs only in column c / differs
 * more); each option then looks only at the rows holding it.
 */
export function computeAvailability(model: CompiledModel, state: EvaluationState): void {
  let fit = new Int32Array(0);
  const memos = prepareForm(model.consistency).localTables;
  for (const rule of model.rules) {
    const table = rule.table;
    if (state.ruleGate[rule.index] !== 'applies') continue;
    if (rule.logic !== undefined) {
      // A warning logical rule is only reported (as a warning assert): it restricts nothing.
      if (rule.severity !== 'error') continue;
      let reason: readonly string[] | undefined;
      logicalRuleReasons(model, rule.logic, state.values, (q, o) =>
        addReason(
          state,
          q,
          model.questions[q].options.length,
          o,
          (reason ??= Object.freeze([rule.key])),
        ),
      );
      continue;
    }
    if (table === undefined) continue;
    const { columns, offers } = table;
    const key = answersKey(table, state.values);
    let memo = memos[rule.index];
    if (memo === undefined || key === undefined || memo.key !== key || memo.table !== table) {
      if (fit.length < table.rowCount) fit = new Int32Array(table.rowCount);
      const matched = fitRows(table, state.values, fit);
      const offered = new Uint8Array(offers[columns.length]);
      for (let c = 0; c < columns.length; c++) {
        const first = offers[c];
        for (let o = first; o < offers[c + 1]; o++)
          if (offeredBy(offers, o, fit, c)) offered[o] = 1;
      }
      memo = { table, key: key ?? '', matched, offered };
      if (key !== undefined) memos[rule.index] = memo;
    }
    state.tableMatched[rule.index] = memo.matched;
    // One frozen reason list shared by every option this table makes unavailable
    // (lines are read-only; see empty.ts).
    let reason: readonly string[] | undefined;
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c];
      const options = model.questions[column].options;
      const first = offers[c];
      for (let o = 0; o < options.length; o++) {
        if (memo.offered[first + o] === 0)
          addReason(state, column, options.length, o, (reason ??= Object.freeze([rule.key])));
      }
    }
  }
  for (const question of model.optionConditions) {
    const options = question.options;
    for (let o = 0; o < options.length; o++) {
      const condition = options[o].availableIf;
      if (condition !== undefined && condition.condition(state.context) === false) {
        addReason(state, question.index, options.length, o, [options[o].key]);
      }
    }
  }
}

/**
 * The answers of the table's columns as a memo key (prepared.ts `localTables`), or
 * undefined when one is not a string or null (then the table is fitted anew).
 */
function answersKey(
  table: CompatibilityTable,
  values: ReadonlyArray<CelValue | null>,
): string | undefined {
  let key = '';
  for (let c = 0; c < table.columns.length; c++) {
    const value = values[table.columns[c]];
    if (value === null) key += '\u0001\u0000';
    else if (typeof value === 'string') key += `${value}\u0000`;
    else return undefined;
  }
  return key;
}

/** Fills `fit` per row; true when some row matches every answered column. */
function fitRows(
  table: CompatibilityTable,
  values: ReadonlyArray<CelValue | null>,
  fit: Int32Array,
): boolean {
  const { columns, cells, rowCount } = table;
  const width = columns.length;
  let matched = false;
  for (let r = 0, at = 0; r < rowCount; r++, at += width) {
    let state = FITS;
    for (let c = 0; c < width; c++) {
      const value = values[columns[c]];
      if (value === null || value === cells[at + c]) continue;
      if (state !== FITS) {
        state = FAR;
        break;
      }
      state = c;
    }
    fit[r] = state;
    if (state === FITS) matched = true;
  }
  return matched;
}

/** Some row holding option entry `entry` is compatible with the other answered columns. */
function offeredBy(offers: Int32Array, entry: number, fit: Int32Array, column: number): boolean {
  for (let i = offers[entry], end = offers[entry + 1]; i < end; i++) {
    const state = fit[offers[i]];
    if (state === FITS || state === column) return true;
  }
  return false;
}

/**
 * `reason` is a one-key list that may be shared (frozen): a shared list is never modified.
 * An option's second reason copies it into a list of this evaluation's own, which later
 * reasons extend in place: copying on every reason was quadratic in the tables that exclude
 * an option (late in a walk on the 268-question car, a third of a click).
 */
function addReason(
  state: EvaluationState,
  question: number,
  optionCount: number,
  option: number,
  reason: readonly string[],
): void {
  const reasons = (state.unavailableBecause[question] ??= new Array<readonly string[] | undefined>(
    optionCount,
  ).fill(undefined));
  const list = reasons[option];
  if (list === undefined) reasons[option] = reason;
  else if (Object.isFrozen(list)) reasons[option] = [...list, reason[0]];
  else (list as string[]).push(reason[0]);
}
