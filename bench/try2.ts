import { readFileSync } from 'node:fs';
import { compileModel } from '../src/engine/index.js';
import { compileConsistency } from '../src/engine/consistency/compile.js';
const doc = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const r = compileModel(doc);
if (!r.ok) throw new Error(JSON.stringify(r.problems));
const t = performance.now();
const form = compileConsistency(r.model, { consistencyMs: 30000, consistencyBytes: 256e6, consistencyEnumeration: 100000 });
console.log('ms', performance.now() - t, form.analysis);
