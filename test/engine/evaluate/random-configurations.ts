/** Random BOM items and answers for random small models (test/engine/consistency/random-model.ts). */
import { randomModel } from '../consistency/random-model.js';

type Random = () => number;

/** A random small model with random nested BOM items over its questions. */
export function randomModelWithBom(random: Random): Record<string, unknown> {
  const { document, specs } = randomModel(random);
  document.bom_items = randomBom(
    random,
    specs.map((spec) => spec.key),
  );
  return document;
}

/** BOM items over the random model's questions: nested, each included or not by a condition. */
export function randomBom(random: Random, keys: readonly string[]): Array<Record<string, unknown>> {
  const item = (key: string, depth: number): Record<string, unknown> => {
    const read = keys[Math.floor(random() * keys.length)];
    const children =
      depth < 2 && random() < 0.5
        ? [item(`${key}_a`, depth + 1), item(`${key}_b`, depth + 1)]
        : undefined;
    return {
      key,
      sku: key.toUpperCase(),
      description: `Part ${key}`,
      ...(random() < 0.7 && { when: `${read} != null` }),
      quantity: 1 + Math.floor(random() * 3),
      unit_price: `${Math.floor(random() * 20)}.50`,
      ...(children && { children }),
    };
  };
  return Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => item(`b${i}`, 0));
}

/** Answers to a random part of the questions: in the domain, out of range, or unknown. */
export function randomAnswers(
  random: Random,
  document: Record<string, unknown>,
): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const question of document.questions as Array<Record<string, unknown>>) {
    if (random() < 0.4) continue;
    const options = ((question.options as Array<{ key: string }> | undefined) ?? []).map(
      (option) => option.key,
    );
    const odd = random() < 0.1;
    let values: unknown[];
    switch (question.type) {
      case 'choice':
        values = [odd ? 'unknown' : options[Math.floor(random() * options.length)]];
        break;
      case 'multi_choice':
        values = options.filter(() => random() < 0.5);
        break;
      case 'boolean':
        values = [random() < 0.5];
        break;
      default:
        values = [(question.min as number) + Math.floor(random() * 3) + (odd ? 5 : 0)];
    }
    answers[question.key as string] = { values };
  }
  return answers;
}
