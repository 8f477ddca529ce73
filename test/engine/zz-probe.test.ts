import { it } from 'vitest';
import { evaluate } from '../../src/engine/index.js';
import { compileOk, windowDocument, answers } from '../../test/engine/helpers.js';
it('probe', () => {
  const m = compileOk(windowDocument());
  const r = evaluate(m, { modelId: 1, versionNumber: 1, questions: answers({ width: 1200, height: 1000, color: 'white' }) });
  const q = r.line.questions[0] as any;
  console.log(JSON.stringify({ ...q, value_prices: Object.keys(q.value_prices ?? {}).length }), JSON.stringify(r.line.price_range), JSON.stringify(r.line.price_bounds), r.line.pricing.total);
  console.log(JSON.stringify(r.line.questions.slice(1).map((x: any) => [x.key, x.options?.map((o: any) => [o.key, o.price, o.price_from, o.price_to])])));
});
