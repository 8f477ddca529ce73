import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ENGINE_LIMITS,
  consistencyTimeLimitMs,
  deserializeConsistency,
} from '../../src/engine/work.js';
import { runBuild, runCompile } from '../../src/engine-runtime/tasks/build-model.js';
import {
  COMPILE_REST_MS,
  compileTimeoutMs,
} from '../../src/engine-runtime/compiled-models.service.js';
import { WINDOW_YAML_PATH } from '../support/examples.js';

describe('a stored version compiled again (runCompile, the compile worker\u2019s task)', async () => {
  const built = await runBuild({
    kind: 'build',
    bytes: readFileSync(WINDOW_YAML_PATH),
    format: 'yaml',
    limits: DEFAULT_ENGINE_LIMITS,
  });
  if (built.kind !== 'built') throw new Error('expected window.yaml to build');
  const task = {
    kind: 'compile',
    definition: built.definition,
    limits: DEFAULT_ENGINE_LIMITS,
  } as const;

  it('hands back the consistency form it built afresh, serialized, when it was given none', () => {
    const outcome = runCompile(task);
    if (outcome.kind !== 'compiled') throw new Error('expected a compile');
    const form = deserializeConsistency(outcome.consistency as Uint8Array);
    const stored = deserializeConsistency(built.consistency);
    expect(form?.analysis.configurations).toBe(stored?.analysis.configurations);
  });

  it('hands back none when it reused the stored one', () => {
    const outcome = runCompile({ ...task, consistency: built.consistency });
    expect(outcome.kind).toBe('compiled');
    expect(outcome).not.toHaveProperty('consistency');
  });
});

describe('the compile worker’s time limit (compileTimeoutMs) and the consistency budget', () => {
  it('outlasts the diagram’s budget and the fallback’s, counted afresh, plus the rest', () => {
    const limits = (consistencyMs: number) => ({ ...DEFAULT_ENGINE_LIMITS, consistencyMs });
    // The default: 30 s for the diagram, 30 s for the fallback, 30 s for the rest.
    expect(compileTimeoutMs(DEFAULT_ENGINE_LIMITS)).toBe(90_000);
    expect(compileTimeoutMs(limits(5_000))).toBe(2 * 5_000 + COMPILE_REST_MS);
    // MODEL_CONSISTENCY_MS=0: no diagram, the fallback has the default 30 s.
    expect(compileTimeoutMs(limits(0))).toBe(30_000 + COMPILE_REST_MS);
    for (const ms of [0, 1, 50, 30_000, 3_600_000]) {
      expect(compileTimeoutMs(limits(ms))).toBe(
        consistencyTimeLimitMs(limits(ms)) + COMPILE_REST_MS,
      );
    }
  });

  it('a model past the consistency budget is built inexact, not refused', async () => {
    const options = Array.from({ length: 60 }, (_, i) => ({ key: `o${i}`, label: 'O' }));
    const list = Array.from({ length: 80 }, (_, i) => i).join(',');
    const document = {
      general: { name: 'enumerated' },
      questions: ['a', 'b'].map((key) => ({ key, label: key, type: 'choice', options })),
      // ~1,000,000 units per assignment, 3,721 assignments: ~5 s without the budget.
      rules: [
        {
          key: 'r',
          message: 'm',
          assert: `cel.bind(l, [${list}], l.all(x, l.all(y, a != 'o1' || b != 'o2')))`,
        },
      ],
    };
    const limits = { ...DEFAULT_ENGINE_LIMITS, consistencyMs: 100 };
    const outcome = await runBuild({
      kind: 'build',
      bytes: Buffer.from(JSON.stringify(document)),
      format: 'json',
      limits,
    });
    if (outcome.kind !== 'built') throw new Error(JSON.stringify(outcome));
    const form = deserializeConsistency(outcome.consistency);
    expect(form?.analysis.exact).toBe(false);
    expect(form?.analysis.reason).toContain('the compile time budget ran out');
    expect(form?.analysis.compile_ms).toBeLessThan(compileTimeoutMs(limits));
  });
});
