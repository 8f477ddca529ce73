import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_LIMITS, deserializeConsistency } from '../../src/engine/index.js';
import { runBuild, runCompile } from '../../src/models/compile/build-model.js';
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
