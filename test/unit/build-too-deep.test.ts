/**
 * A build whose compile runs out of call stack is the model's problem: a 422
 * `model_too_deep` refusal, never an error out of the worker's task (which the service
 * answered with a 500); so is a stored version's compile on a cache miss (the evaluating
 * worker's `load`). The compile is replaced here by one that overflows the stack for a
 * model named "Deep", and throws another error for one named "Broken".
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ENGINE_LIMITS } from '../../src/engine/work.js';
import { deflateDefinition } from '../../src/engine-runtime/definition-bytes.js';

vi.mock('../../src/engine/work.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/engine/work.js')>();
  const recurse = (depth: number): number => recurse(depth + 1) + 1;
  return {
    ...actual,
    compileDocument: (...args: Parameters<typeof actual.compileDocument>) => {
      const name = (args[0] as { general?: { name?: string } }).general?.name;
      if (name === 'Deep') recurse(0);
      if (name === 'Broken') throw new TypeError('a bug');
      return actual.compileDocument(...args);
    },
  };
});

const upload = (name: string) => ({
  kind: 'build' as const,
  bytes: Buffer.from(
    JSON.stringify({
      general: { name },
      questions: [
        { key: 'size', type: 'choice', label: 'Size', options: [{ key: 's', label: 'S' }] },
      ],
    }),
  ),
  format: 'json' as const,
  limits: DEFAULT_ENGINE_LIMITS,
});

// The suite's files share a module registry per fork (docs/adr/0210): the build is loaded
// afresh here, after the mock above, whatever an earlier file loaded.
let runBuild: typeof import('../../src/engine-runtime/tasks/build-model.js').runBuild;
let runCompile: typeof import('../../src/engine-runtime/tasks/build-model.js').runCompile;
let EngineTasks: typeof import('../../src/engine-runtime/tasks/engine-tasks.js').EngineTasks;
beforeAll(async () => {
  vi.resetModules();
  ({ runBuild, runCompile } = await import('../../src/engine-runtime/tasks/build-model.js'));
  ({ EngineTasks } = await import('../../src/engine-runtime/tasks/engine-tasks.js'));
});
// And the later files of the fork load them afresh, unmocked: the tasks loaded above
// hold the instance of the engine the mock wraps, whose sentinels (`UNKNOWN`,
// src/engine/cel/expression.ts) are not those of a model another file compiles.
afterAll(() => {
  vi.doUnmock('../../src/engine/work.js');
  vi.resetModules();
});

/** A stored definition, as the evaluating worker's `load` receives it. */
const stored = (name: string) =>
  deflateDefinition(
    JSON.stringify({
      general: { name },
      questions: [
        { key: 'size', type: 'choice', label: 'Size', options: [{ key: 's', label: 'S' }] },
      ],
    }),
  );

const TOO_DEEP = { kind: 'refused', status: 422, problems: [{ code: 'model_too_deep' }] };

describe('a build that overflows the call stack', () => {
  it('is refused as a model nested too deeply (422 model_too_deep)', async () => {
    const outcome = await runBuild(upload('Deep'));
    expect(outcome).toMatchObject({
      kind: 'refused',
      status: 422,
      problems: [{ code: 'model_too_deep' }],
    });
  });

  it('leaves other errors to the caller, and other models built', async () => {
    await expect(runBuild(upload('Broken'))).rejects.toThrow(TypeError);
    expect((await runBuild(upload('Shallow'))).kind).toBe('built');
  });
});

describe('a stored version whose compile overflows the call stack (a cache miss)', () => {
  const compile = (name: string) => ({
    kind: 'compile' as const,
    definition: stored(name),
    limits: DEFAULT_ENGINE_LIMITS,
  });

  it('is refused as the upload is (422 model_too_deep), other errors thrown on', () => {
    expect(runCompile(compile('Deep'))).toMatchObject(TOO_DEEP);
    expect(() => runCompile(compile('Broken'))).toThrow(TypeError);
    expect(runCompile(compile('Shallow')).kind).toBe('compiled');
  });

  it("is the evaluating worker's answer to the load, not an error out of its task", async () => {
    const tasks = new EngineTasks({
      cacheEntries: 4,
      cacheBytes: 64 * 1024 * 1024,
      assetUrls: { key: new Uint8Array(32), ttlSeconds: 60 },
    });
    const version = { key: '1:1', modelId: 1, versionNumber: 1 };
    const load = (name: string) => ({ ...compile(name), kind: 'load' as const, version });
    expect((await tasks.run(load('Deep'))).value).toMatchObject(TOO_DEEP);
    expect((await tasks.run(load('Shallow'))).value).toMatchObject({ kind: 'loaded' });
  });
});
