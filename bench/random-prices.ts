/**
 * Random option prices for the guided-configuration benches (bench/guided.bench.ts,
 * bench/nearest-phases.ts): the same draws in the same order from the same seeded
 * `random`, so that both benches price a model alike.
 */
const PRICES = ['0', '0', '49.90', '120.00', '250.00', '399.99', '1250.00', '-75.00'];

/**
 * The document with a random price on every option and, for booleans (feature models have
 * no options), a priced adjustment `when: <question> == true` on a third of them.
 */
export function randomlyPriced(
  document: Record<string, unknown>,
  random: () => number,
): Record<string, unknown> {
  const price = () => PRICES[Math.floor(random() * PRICES.length)];
  const questions = document.questions as Array<Record<string, unknown>>;
  for (const question of questions)
    for (const option of (question.options as Array<Record<string, unknown>> | undefined) ?? [])
      option.price = price();
  const adjustments = questions
    .filter((question) => question.type === 'boolean' && random() < 1 / 3)
    .map((question) => ({
      key: `price_${String(question.key)}`,
      label: 'feature',
      amount: price(),
      when: `${String(question.key)} == true`,
    }));
  return { ...document, pricing: { base_price: '18990.00', adjustments } };
}
