import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  sendModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * docs/model-format.md, read as it is: its minimal example and every step of its tutorial
 * are uploaded, and every preview the page shows is asked for and compared with what the
 * page says (`toMatchObject`: the page shows excerpts of objects, lists whole). A block is
 * marked by the HTML comment before its fence: `<!-- example:model -->`,
 * `<!-- tutorial:request -->`, `<!-- tutorial:answer -->`, …
 */
const GUIDE = join(import.meta.dirname, '..', '..', 'docs', 'model-format.md');

interface Block {
  group: 'example' | 'tutorial';
  kind: 'model' | 'request' | 'answer';
  text: string;
  line: number;
}

function markedBlocks(markdown: string): Block[] {
  const pattern =
    /<!-- (example|tutorial):(model|request|answer) -->\n```(?:yaml|json)\n([\s\S]*?)\n```/g;
  return [...markdown.matchAll(pattern)].map((match) => ({
    group: match[1] as Block['group'],
    kind: match[2] as Block['kind'],
    text: match[3],
    line: markdown.slice(0, match.index).split('\n').length,
  }));
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A step adds to the model so far: lists are appended, maps merged, anything else set. */
function addStep(model: Json, step: Json): Json {
  const next: Json = { ...model };
  for (const [key, value] of Object.entries(step)) {
    const before = next[key];
    if (Array.isArray(before) && Array.isArray(value)) next[key] = [...before, ...value];
    else if (isRecord(before) && isRecord(value)) next[key] = addStep(before, value);
    else next[key] = value;
  }
  return next;
}

/** The page's blocks in order: each model, then the request/answer pairs shown after it. */
function steps(
  blocks: Block[],
): { model: Json; previews: { request: Json; answer: Json; line: number }[] }[] {
  const out: { model: Json; previews: { request: Json; answer: Json; line: number }[] }[] = [];
  let model: Json = {};
  let request: Json | undefined;
  for (const block of blocks) {
    if (block.kind === 'model') {
      model = addStep(model, load(block.text) as Json);
      out.push({ model, previews: [] });
    } else if (block.kind === 'request') request = JSON.parse(block.text) as Json;
    else {
      expect(request, `an answer without a request at line ${block.line}`).toBeDefined();
      out.at(-1)!.previews.push({
        request: request!,
        answer: JSON.parse(block.text) as Json,
        line: block.line,
      });
      request = undefined;
    }
  }
  return out;
}

describe('docs/model-format.md: the minimal example and the tutorial', () => {
  const blocks = markedBlocks(readFileSync(GUIDE, 'utf8'));
  let ctx: TestContext;
  let world: ModelWorld;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
  });
  afterAll(() => ctx?.close());

  const preview = async (modelId: number, request: Json) => {
    const res = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(world.companyMember.token))
      .send({ model_id: modelId, company_id: world.company.id, ...request });
    return expectEnvelope(res, 200).data as Json;
  };

  it('finds the marked blocks: one example, six tutorial steps, a preview after each', () => {
    const tutorial = steps(blocks.filter((b) => b.group === 'tutorial'));
    expect(steps(blocks.filter((b) => b.group === 'example'))).toHaveLength(1);
    expect(tutorial).toHaveLength(6);
    for (const step of tutorial) expect(step.previews.length).toBeGreaterThan(0);
  });

  it('uploads the minimal example and answers the preview it shows', async () => {
    const [example] = steps(blocks.filter((b) => b.group === 'example'));
    const model = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      example.model,
    );
    for (const { request, answer, line } of example.previews)
      expect(await preview(model.id, request), `docs/model-format.md:${line}`).toMatchObject(
        answer,
      );
  });

  it('uploads each step of the tutorial as a new version and answers every preview it shows', async () => {
    let modelId: number | undefined;
    for (const [index, step] of steps(blocks.filter((b) => b.group === 'tutorial')).entries()) {
      if (modelId === undefined) {
        modelId = (
          await uploadModel(ctx, world.supplier.id, world.supplierMember.token, step.model)
        ).id;
      } else {
        const res = await sendModel(
          ctx,
          'put',
          `/v1/models/${modelId}`,
          world.supplierMember.token,
          step.model,
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect((res.body.data as Json).version_number).toBe(index + 1);
      }
      for (const { request, answer, line } of step.previews)
        expect(await preview(modelId, request), `docs/model-format.md:${line}`).toMatchObject(
          answer,
        );
    }
  });
});
