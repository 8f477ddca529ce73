import type { CompiledVariable } from '../model-core.js';
import type { Validation } from './context.js';
import { QUESTION_KEY_PATTERN } from './reader.js';

const VARIABLE_KEYS = new Set(['key', 'expr', 'label', 'display', 'unit']);

export function validateVariables(
  v: Validation,
  value: unknown,
  names: Set<string>,
): CompiledVariable[] {
  const list = v.optionalList(value, 'variables');
  const variables: CompiledVariable[] = [];
  for (const [record, path] of v.records(list, 'variables')) {
    v.allowKeys(record, VARIABLE_KEYS, path);
    const key = v.key(record, path, QUESTION_KEY_PATTERN, 'variable');
    const expr = v.expr(record, 'expr', path, true);
    const label = v.text(record, 'label', path);
    const display = record.display === undefined ? false : record.display;
    const unit = v.text(record, 'unit', path);
    if (typeof display !== 'boolean')
      v.fail('invalid_type', 'display must be true or false', `${path}.display`);
    else if (display && label === undefined)
      v.fail('required', 'a displayed variable needs a label', `${path}.label`);
    if (key === undefined || expr === undefined) continue;
    if (!v.unique(names, key, path, 'question/variable')) continue;
    const shown = display === true && label !== undefined;
    variables.push({
      index: variables.length,
      key,
      expr,
      // A displayed variable's label and unit are in every line (displayed_variables), so
      // a missing translation of them is reported as the questions' are.
      labelSlot: v.texts.addOptional(`variables.${key}.label`, label, shown),
      display: shown,
      unitSlot: v.texts.addOptional(`variables.${key}.unit`, unit, shown),
    });
  }
  return variables;
}
