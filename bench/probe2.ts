import { readFileSync } from 'node:fs';
import { compileModel, evaluateConfiguration } from '../src/engine/index.js';
for (const n of ['1000', '5000']) {
  const doc = JSON.parse(readFileSync(`/tmp/w6/m${n}.json`, 'utf8'));
  const answers = JSON.parse(readFileSync(`/tmp/w6/a${n}.json`, 'utf8'));
  let t = performance.now();
  const r = compileModel(doc);
  const c = performance.now() - t;
  if (!r.ok) throw new Error('x');
  const times: number[] = [];
  for (let i = 0; i < 150; i++) { t = performance.now(); evaluateConfiguration(r.model, { modelId: 1, versionNumber: 1, questions: answers }); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(n, 'compile', c.toFixed(0), 'consistency', r.model.consistency.analysis.compile_ms, 'eval median', times[75].toFixed(2), 'min', times[0].toFixed(2));
}
