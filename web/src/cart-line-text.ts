// A cart line in words for its row: its answers and the values shown to buyers.
import type { CartLine } from './api.js';
import { formatValue } from './line-view.js';

/** A line's visible answers, by label: "Width: 1200 · Colour: White". */
export function answersText(line: CartLine): string {
  return line.questions
    .filter((q) => q.visible && q.values.length > 0)
    .map((q) => {
      const labels = q.values.map((v) => q.options?.find((o) => o.key === v)?.label ?? String(v));
      return `${q.label}: ${labels.join(', ')}`;
    })
    .join(' · ');
}

/** The computed values the modeller shows buyers ("Range: 412 km"), one line of text. */
export function displayedText(line: CartLine, locale: string): string {
  return (line.displayed_variables ?? [])
    .map((v) => `${v.label}: ${formatValue(v.value, locale)}${v.unit ? ` ${v.unit}` : ''}`)
    .join(' · ');
}
