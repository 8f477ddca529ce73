/**
 * Stored bytes per cart line (not a test), before and after compact storage (#10):
 * before, `cart_lines.line` held the whole evaluated line next to the answers; now it
 * holds `{}` and the line is rebuilt from the compiled model version on read. Both are
 * what the code writes into the two JSON text columns (simple-json: JSON.stringify);
 * the short columns (ids, total, currency, language, created_at) are the same for both.
 * Run with `npm run bench:cart-lines` (tools/gen-model.mjs, or GEN_MODEL=<another generator>;
 * QUESTIONS=1000 by default).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compileDocument, evaluate } from '../src/engine/work.js';
import { runGenerator } from './run-generator.js';

const GENERATOR = resolve(process.env.GEN_MODEL ?? 'tools/gen-model.mjs');
const QUESTIONS = Number(process.env.QUESTIONS ?? 1000);

const dir = mkdtempSync(join(tmpdir(), 'cart-line-bytes-'));
try {
  const generated = runGenerator(GENERATOR, QUESTIONS, dir);
  const document = generated.document;
  const answers = generated.answers as Record<string, unknown>;
  const compiled = compileDocument(document);
  if (!compiled.ok) throw new Error('generated model rejected');
  const evaluation = evaluate(compiled.model, {
    modelId: 1,
    versionNumber: 1,
    questions: answers,
    languageCode: null,
    assetUrl: (path) => `/v1/companies/1/models/1/assets/${path}`,
  });
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
  const answersBytes = bytes(answers);
  const before = answersBytes + bytes(evaluation.line);
  const after = answersBytes + bytes({});
  console.log(`questions: ${QUESTIONS} (valid line: ${evaluation.valid})`);
  console.log(`answers column: ${answersBytes} B`);
  console.log(`before: answers + line = ${before} B per line`);
  console.log(
    `after:  answers + {}   = ${after} B per line (${(before / after).toFixed(1)}× smaller)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
