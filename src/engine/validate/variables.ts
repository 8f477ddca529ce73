import type { CompiledVariable } from '../model-core.js';
import type { Validation } from './context.js';
import { QUESTION_KEY_PATTERN } from './reader.js';

const VARIABLE_KEYS = new Set(['key', 'expr', 'label']);

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
    if (key === undefined || expr === undefined) continue;
    if (!v.unique(names, key, path, 'question/variable')) continue;
    variables.push({
      index: variables.length,
      key,
      expr,
      // Variable labels are not part of a cart line (variables are `{key: value}`).
      labelSlot: v.texts.addOptional(`variables.${key}.label`, label, false),
    });
  }
  return variables;
}
