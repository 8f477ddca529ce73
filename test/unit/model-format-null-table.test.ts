import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileDocument, evaluate } from '../../src/engine/work.js';

/**
 * docs/model-format.md, "Unanswered questions in expressions": the table of what a rule over
 * unanswered questions is, read from the page and checked against the engine. When the
 * engine's null semantics change, this fails until the page says what the engine does.
 */
const GUIDE = readFileSync(
  join(import.meta.dirname, '..', '..', 'docs', 'model-format.md'),
  'utf8',
);

function tableRows(): { expressions: string[]; status: string }[] {
  const section = GUIDE.slice(GUIDE.indexOf('## Unanswered questions in expressions'));
  const table = section.slice(
    section.indexOf('| expression'),
    section.indexOf('\n\n', section.indexOf('| expression')),
  );
  return table
    .split('\n')
    .slice(2) // header and separator
    .map((row) =>
      row
        .replace(/\\\|/g, '¦')
        .split('|')
        .map((cell) => cell.trim()),
    )
    .map(([, expressions, , status]) => ({
      expressions: [...expressions!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/¦/g, '|')),
      status: status!.replace(/\*/g, ''),
    }));
}

function ruleStatus(expression: string): string {
  const compiled = compileDocument({
    general: { name: 'Null semantics' },
    questions: [
      {
        key: 'top',
        type: 'choice',
        label: 'Top',
        options: [
          { key: 'pine', label: 'Pine' },
          { key: 'oak', label: 'Oak' },
        ],
      },
      { key: 'length', type: 'integer', label: 'Length', min: 120, max: 240, step: 20 },
      {
        key: 'extras',
        type: 'multi_choice',
        label: 'Extras',
        options: [{ key: 'bench', label: 'Bench' }],
      },
    ],
    rules: [{ key: 'r', severity: 'warning', assert: expression, message: 'm' }],
  });
  if (!compiled.ok) throw new Error(`${expression}: ${JSON.stringify(compiled.problems)}`);
  const { line } = evaluate(compiled.model, {
    modelId: 1,
    versionNumber: 1,
    questions: {},
  });
  return line.rules[0]!.status;
}

describe('docs/model-format.md: rules over unanswered questions', () => {
  const rows = tableRows();

  it('reads the table', () => {
    expect(rows.length).toBeGreaterThanOrEqual(7);
    expect(rows.flatMap((row) => row.expressions)).toContain("top == 'pine' || top == 'oak'");
  });

  it.each(
    rows.flatMap((row) =>
      row.expressions.filter((e) => e !== 'extras').map((e) => [e, row.status]),
    ),
  )('%s is %s', (expression, status) => {
    expect(ruleStatus(expression)).toBe(status);
  });
});
