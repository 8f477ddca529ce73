import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERFLOW_ERRORS, OVERFLOW_SECTIONS } from '../support/attack-models.js';
import { bearer, expectEnvelope, problemsOf } from '../support/factories.js';
import {
  createCompanyMember,
  createModelWorld,
  minimalModel,
  sendModel,
} from '../support/model.factories.js';
import type { ModelWorld } from '../support/model.factories.js';
import { createIntent } from '../support/org.factories.js';
import {
  slowestLiveness,
  startServerProcess,
  type ServerProcess,
} from '../support/server-process.js';

/**
 * Issue #7's attacks replayed against the built server in a child process: while each
 * runs, /health/live answers within 100 ms; each ends within 2 s in a 4xx naming the
 * limit or in a line with a cost_limit error (or simply a correct line); nothing 5xx;
 * the process lives on.
 */
const HEALTH_MS = 100;
const ATTACK_MS = 2_000;

/**
 * Writes to stdout a zip whose model.json (5,000 choice questions × 100 options) is
 * over 10 MB uncompressed and well under 200 KB compressed.
 */
const ZIP_BOMB_SCRIPT = `
const { default: JSZip } = await import('jszip');
import { execFileSync } from 'node:child_process';
const options = Array.from({ length: 100 }, (_, o) => ({ key: 'option_' + o, label: 'Option ' + o }));
const questions = Array.from({ length: 5000 }, (_, q) => ({
  key: 'question_' + q, type: 'choice', label: 'Question number ' + q, options,
}));
const json = JSON.stringify({ general: { name: 'Attack zip', code: 'zip' }, questions });
if (json.length <= 10 * 1024 * 1024) throw new Error('model too small: ' + json.length);
const zip = await new JSZip().file('model.json', json)
  .generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
process.stdout.write(zip);
`;

/** `[0, 1, …, n-1]` as CEL source. */
const listLiteral = (n: number): string => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;

/** Nested cel.bind, each level concatenating the list four times (4^levels × the literal). */
function bindBomb(targetLength: number): string {
  let body = 'a.size()';
  for (let i = 0; i < 11; i++) body = `cel.bind(a, a + a + a + a, ${body})`;
  const wrap = (items: number) => `cel.bind(a, ${listLiteral(items)}, ${body})`;
  let items = 1;
  while (wrap(items + 1).length <= targetLength) items++;
  return wrap(items);
}

describe('engine attacks through the real server process', () => {
  let server: ServerProcess;
  let world: ModelWorld;

  beforeAll(async () => {
    server = await startServerProcess();
    world = await createModelWorld(server);
    // A running service: its compile worker started and its routes warm.
    const warm = await send(minimalModel('warm'));
    expect(warm.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  const send = (model: Record<string, unknown> | Buffer) =>
    sendModel(
      server,
      'post',
      `/v1/suppliers/${world.supplier.id}/models`,
      world.supplierMember.token,
      model,
    );

  /**
   * Runs an (idempotent) attack while probing liveness. Other test files share the two
   * cores, so a probe can be late for reasons of its own: an attack gets up to three
   * runs to show a calm service; a real stall (a blocking compile, a backtracking regex)
   * is slow every time.
   */
  const attack = async <T>(work: () => Promise<T>) => {
    let run = await slowestLiveness(server, work);
    for (let retry = 0; retry < 2 && run.slowestMs >= HEALTH_MS; retry++)
      run = await slowestLiveness(server, work);
    return run;
  };
  const upload = (model: Record<string, unknown> | Buffer) => attack(() => send(model));

  const expectCalm = (run: { slowestMs: number; elapsedMs: number }) => {
    expect(run.slowestMs, 'slowest /health/live during the attack').toBeLessThan(HEALTH_MS);
    expect(run.elapsedMs, 'attack duration').toBeLessThan(ATTACK_MS);
    expect(server.alive(), server.output()).toBe(true);
  };

  const model = (code: string, sections: Record<string, unknown>) => ({
    general: { name: `Attack ${code}`, code },
    ...sections,
  });

  it('the 342-character nested cel.bind list concatenation: 400 naming expressionCost', async () => {
    const expr = bindBomb(342);
    expect(expr.length).toBeGreaterThanOrEqual(330);
    expect(expr.length).toBeLessThanOrEqual(342);
    const run = await upload(model('bind', { variables: [{ key: 'boom', expr }] }));
    expectCalm(run);
    const body = expectEnvelope(run.result, 400);
    const problem = problemsOf(body).find((p) => p.code === 'cost_limit');
    expect(problem?.path).toBe('variables.boom.expr');
    expect(problem?.message).toContain('expressionCost');
  });

  it('the 4 KB triple comprehension over a 1,000-element list: 400 naming expressionCost', async () => {
    const expr = `cel.bind(l, ${listLiteral(1000)}, l.map(a, l.map(b, l.filter(c, c < n).size())))`;
    expect(expr.length).toBeGreaterThan(3_900);
    expect(expr.length).toBeLessThanOrEqual(4_096);
    const run = await upload(
      model('comprehension', {
        questions: [{ key: 'n', type: 'integer', label: 'N' }],
        variables: [{ key: 'slow', expr }],
      }),
    );
    expectCalm(run);
    const problem = problemsOf(expectEnvelope(run.result, 400)).find(
      (p) => p.code === 'cost_limit',
    );
    expect(problem?.path).toBe('variables.slow.expr');
    expect(problem?.message).toMatch(
      /may cost [\d,.e+]+ units; the limit expressionCost is 1000000/,
    );
  });

  it('an 88 KB zip holding a 13 MB model: 413 naming uploadBytes, decided before parsing', async () => {
    // Built in a child process: 13 MB of JSON in this process would stall the probes here.
    const zip = execFileSync(process.execPath, ['--input-type=module', '-e', ZIP_BOMB_SCRIPT], {
      cwd: process.cwd(),
      maxBuffer: 1024 * 1024,
    });
    expect(zip.length).toBeLessThan(200 * 1024);
    const run = await upload(zip);
    expectCalm(run);
    const body = expectEnvelope(run.result, 413);
    expect(problemsOf(body)[0].message).toContain('uploadBytes');
    expect(problemsOf(body)[0].path).toBe('model.json');
  });

  describe('previews with an intent token', () => {
    let intent: string;
    const preview = (modelId: number, questions: Record<string, unknown>) =>
      attack(async () =>
        server.http
          .post('/v1/carts/preview')
          .set(bearer(intent))
          .send({ model_id: modelId, company_id: world.company.id, questions }),
      );
    const uploaded = async (document: Record<string, unknown>): Promise<number> => {
      const res = await send(document);
      return (expectEnvelope(res, 201).data as { id: number }).id;
    };

    beforeAll(async () => {
      const buyer = await createCompanyMember(server, world);
      intent = await createIntent(server, buyer, world.company.id);
    });

    it('the backtracking regex with a 28-character answer runs in linear time', async () => {
      const modelId = await uploaded(
        model('regex', {
          questions: [{ key: 'ref', type: 'text', label: 'Reference', max_length: 64 }],
          rules: [
            {
              key: 'ref_format',
              when: 'ref != null',
              assert: "ref.matches('^([a-zA-Z0-9]+)*$')",
              message: 'letters and digits only',
            },
          ],
        }),
      );
      const run = await preview(modelId, { ref: { values: [`${'a'.repeat(27)}!`] } });
      expectCalm(run);
      const line = expectEnvelope(run.result, 200).data as Record<string, any>;
      expect(line.rules[0]).toEqual(
        expect.objectContaining({ key: 'ref_format', status: 'failed' }),
      );
    });

    it('length = 1e308: invalid, naming the BOM items whose price cannot be computed', async () => {
      const modelId = await uploaded(model('overflow', OVERFLOW_SECTIONS));
      const run = await preview(modelId, { length: { values: [1e308] } });
      expectCalm(run);
      const line = expectEnvelope(run.result, 200).data as Record<string, any>;
      expect(line.valid).toBe(false);
      expect(line.errors.map((e: { code: string; path: string }) => [e.code, e.path])).toEqual(
        OVERFLOW_ERRORS,
      );
    });

    it('expressions each under the static limit but together over the budget: cost_limit', async () => {
      const options = Array.from({ length: 1000 }, (_, o) => ({ key: `o${o}`, label: `O${o}` }));
      // ~110,000 units each (1,000 options): 150 of them are ~16,000,000 > 10,000,000.
      const variables = Array.from({ length: 150 }, (_, i) => ({
        key: `v${i}`,
        expr: `picks.filter(a, a.startsWith("o${i + 1}")).size()`,
      }));
      const modelId = await uploaded(
        model('budget', {
          questions: [{ key: 'picks', type: 'multi_choice', label: 'Picks', options }],
          variables,
        }),
      );
      const run = await preview(modelId, { picks: { values: options.map((o) => o.key) } });
      expectCalm(run);
      const line = expectEnvelope(run.result, 200).data as Record<string, any>;
      expect(line.valid).toBe(false);
      const limited = line.errors.filter((e: { code: string }) => e.code === 'cost_limit');
      expect(limited.length).toBeGreaterThan(0);
      expect(limited[0].path).toMatch(/^variables\[\d+\]\.expr$/);
      expect(line.variables.v0).toBe(111);
    });
  });
});
