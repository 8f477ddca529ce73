import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { compileModel, evaluateConfiguration } from '../src/engine/index.js';
const n = process.argv[2] ?? '1000';
execFileSync(process.execPath, ['../shared/tools/gen-model.mjs', '--questions', n, '--out', `/tmp/w6/m${n}.json`, '--answers', `/tmp/w6/a${n}.json`]);
const doc = JSON.parse(readFileSync(`/tmp/w6/m${n}.json`, 'utf8'));
const answers = JSON.parse(readFileSync(`/tmp/w6/a${n}.json`, 'utf8'));
let t = performance.now();
const r = compileModel(doc);
console.log('compile', performance.now() - t);
if (!r.ok) throw new Error('x');
console.log(r.model.consistency.analysis, r.model.consistency.domain.length);
const times: number[] = [];
for (let i = 0; i < 100; i++) { t = performance.now(); evaluateConfiguration(r.model, { modelId: 1, versionNumber: 1, questions: answers }); times.push(performance.now() - t); }
times.sort((a, b) => a - b); console.log('eval median', times[50]);
