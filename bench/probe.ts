import { readFileSync } from 'node:fs';
import { compileModel, evaluateConfiguration } from '../src/engine/index.js';
const doc = JSON.parse(readFileSync('/tmp/w6/m1000.json', 'utf8'));
const answers = JSON.parse(readFileSync('/tmp/w6/a1000.json', 'utf8'));
const r = compileModel(doc);
if (!r.ok) throw new Error('x');
const res = evaluateConfiguration(r.model, { modelId: 1, versionNumber: 1, questions: answers });
let unavailable = 0, withConflicts = 0, sizes: Record<number, number> = {};
for (const q of res.line.questions) for (const o of q.options ?? []) if (!o.available) { unavailable++; sizes[o.conflicts_with.length] = (sizes[o.conflicts_with.length] ?? 0) + 1; }
console.log('answers', Object.keys(answers).length, 'unavailable', unavailable, sizes, 'valid', res.valid, res.errors.length, JSON.stringify(res.line.consistency).slice(0, 80));
console.log('parts', r.model.consistency.partSources.length, 'layers', r.model.consistency.domain.length);
