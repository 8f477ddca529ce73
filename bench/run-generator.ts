import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs a model generator's command line (tools/gen-model.mjs, or another one taking the
 * same arguments) into `dir` and reads back the model and its answers.
 */
export function runGenerator(
  generator: string,
  questions: number,
  dir: string,
): { document: unknown; answers: unknown } {
  const out = join(dir, `model-${questions}.json`);
  const answersOut = join(dir, `answers-${questions}.json`);
  execFileSync(process.execPath, [
    generator,
    '--questions',
    String(questions),
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
