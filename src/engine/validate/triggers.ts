import type { CompiledQuestion, CompiledTrigger, TriggerTarget } from '../model-core.js';
import { convertLiteral } from '../question-values.js';
import type { Validation } from './context.js';
import { childPath, isRecord, SECTION_KEY_PATTERN } from './reader.js';

const TRIGGER_KEYS = new Set(['key', 'when', 'set', 'message']);

export function validateTriggers(
  v: Validation,
  value: unknown,
  questionIndex: ReadonlyMap<string, number>,
  questions: readonly CompiledQuestion[],
): CompiledTrigger[] {
  const list = v.optionalList(value, 'triggers');
  const seen = new Set<string>();
  const triggers: CompiledTrigger[] = [];
  for (const [record, path] of v.records(list, 'triggers')) {
    v.allowKeys(record, TRIGGER_KEYS, path);
    const key = v.key(record, path, SECTION_KEY_PATTERN, 'trigger');
    const when = v.expr(record, 'when', path, true);
    const message = v.text(record, 'message', path);
    const setPath = childPath(path, 'set');
    const set =
      record.set === undefined
        ? v.fail('required', 'set is required', setPath)
        : v.record(record.set, setPath);
    const targets: TriggerTarget[] = [];
    for (const [target, raw] of Object.entries(set ?? {})) {
      const at = childPath(setPath, target);
      const question = questionIndex.get(target);
      if (question === undefined) {
        v.fail('unknown_reference', `'${target}' is not a question`, at);
        continue;
      }
      if (isRecord(raw) && 'expr' in raw) {
        v.allowKeys(raw, new Set(['expr']), at);
        const expr = v.expr(raw, 'expr', at, true);
        if (expr !== undefined) targets.push({ question, literal: null, expr });
        continue;
      }
      const converted = convertLiteral(questions[question], raw);
      if (!converted.ok) v.fail('invalid_value', `${target}: ${converted.message}`, at);
      else targets.push({ question, literal: converted.value, expr: undefined });
    }
    if (set !== undefined && Object.keys(set).length === 0)
      v.fail('invalid_value', 'set is empty', setPath);
    if (key === undefined || when === undefined || !v.unique(seen, key, path, 'trigger')) continue;
    triggers.push({
      index: triggers.length,
      key,
      when,
      targets,
      messageSlot: v.texts.addOptional(`triggers.${key}.message`, message, true),
    });
  }
  return triggers;
}
