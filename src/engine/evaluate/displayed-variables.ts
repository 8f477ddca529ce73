import type { CompiledVariable, LanguageTexts } from '../model.js';
import type { LineDisplayedVariable } from '../types.js';

/**
 * A variable the modeller marked `display: true`, as buyers read it: its label and unit
 * in the line's language, its value as `variables` has it.
 */
export function displayedVariable(
  variable: CompiledVariable,
  value: unknown,
  texts: LanguageTexts,
): LineDisplayedVariable {
  const label = variable.labelSlot === undefined ? variable.key : texts.texts[variable.labelSlot];
  const unit = variable.unitSlot === undefined ? undefined : texts.texts[variable.unitSlot];
  return { key: variable.key, label, value, ...(unit !== undefined && { unit }) };
}
