/**
 * Stored bytes per cart line (not a test), before and after compact storage (#10):
 * before, `cart_lines.line` held the whole evaluated line next to the answers; now it
 * holds `{}` and the line is rebuilt from the compiled model version on read. Both are
 * what the code writes into the two JSON text columns (simple-json: JSON.stringify);
 * the short columns (ids, total, currency, language, created_at) are the same for both.
 * Run with `npm run bench:cart-lines` (the shared gen-model.mjs when GEN_MODEL points at it
 * or ../shared/tools has it, else the port in generate-model.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compileModel, evaluateConfiguration } from '../src/engine/index.js';
import { generateModel } from './generate-model.js';

const SHARED_GENERATOR = resolve(process.env.GEN_MODEL ?? '../shared/tools/gen-model.mjs');
const QUESTIONS = Number(process.env.QUESTIONS ?? 1000);

function generate(dir: string): { document: unknown; answers: Record<string, unknown> } {
  if (!existsSync(SHARED_GENERATOR)) {
    const generated = generateModel(QUESTIONS);
    return { document: generated.model, answers: generated.answers as Record<string, unknown> };
  }
  const out = join(dir, 'model.json');
  const answersOut = join(dir, 'answers.json');
  execFileSync(process.execPath, [
    SHARED_GENERATOR,
    '--questions',
    String(QUESTIONS),
    '--out',
    out,
    '--answers',
    answersOut,
  ]);
  return {
    document: JSON.parse(readFileSync(out, 'utf8')),
    answers: JSON.parse(readFileSync(answersOut, 'utf8')),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'cart-line-bytes-'));
try {
  const { document, answers } = generate(dir);
  const compiled = compileModel(document);
  if (!compiled.ok) throw new Error('generated model rejected');
  const evaluation = evaluateConfiguration(compiled.model, {
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
