import { domainIndex } from '../consistency/domains.js';
import type { CompiledModel, CompiledQuestion } from '../model.js';
import { convertElement } from '../question-values.js';

/** The request's answers by question key, as `{values}` (each answer a list). */
export type Answers = Record<string, { values: unknown[] }>;

/** The forced pick: its question, the values picked, and the question's answer before. */
export interface Pick {
  readonly question: CompiledQuestion;
  readonly values: unknown[];
  /** A multi_choice's whole list (its other options unselected). */
  readonly whole: boolean;
  readonly before: unknown[];
}

/** The diagram value of each layer an answer gives (single: its index; multi: 1 per selected). */
export function answerLayers(model: CompiledModel, question: CompiledQuestion, values: unknown[]) {
  const form = model.consistency;
  const first = form.firstLayer[question.index];
  const layers: number[] = [];
  const codes: number[] = [];
  if (first < 0) return { layers, codes };
  if (question.type === 'multi_choice') {
    for (const key of values) {
      layers.push(first + (question.optionIndex.get(key as string) as number));
      codes.push(1);
    }
  } else {
    const converted = convertElement(question, values[0]);
    const index = converted.ok ? domainIndex(question, converted.value) : -1;
    if (index > 0) {
      layers.push(first);
      codes.push(index);
    }
  }
  return { layers, codes };
}
