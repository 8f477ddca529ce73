import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainedModel } from '../../bench/faults/fault-models.mjs';
import { createUser } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { addSupplierMember, createSupplier } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * A model whose compile takes seconds (the fault scenario's generator): several seconds even
 * on an idle machine, so that the small upload need not count on a loaded machine to
 * arrive while this one still runs.
 */
const slowModel = (code: string) => chainedModel(code, 4000);

describe('compiles: a small model never waits behind another supplier’s long compile', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let otherSupplierId: number;
  let otherToken: string;

  beforeAll(async () => {
    // One compile worker: without the quick lane the small upload would queue behind.
    ctx = await createTestApp({ COMPILE_WORKERS: '1', COMPILE_LANE_MS: '300' });
    world = await createModelWorld(ctx);
    const other = await createSupplier(ctx, world.admin, world.company.id);
    const member = await createUser(ctx, world.admin);
    await addSupplierMember(ctx, world.admin, other.id, member.id);
    otherSupplierId = other.id;
    otherToken = member.token;
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it(
    'answers the small upload while the long compile is still running, then both are stored',
    { timeout: 120_000 },
    async () => {
      const finished: string[] = [];
      const slowBody = slowModel('SLOW');
      const slow = sendModel(
        ctx,
        'post',
        `/v1/suppliers/${world.supplier.id}/models`,
        world.supplierMember.token,
        slowBody,
      ).then((res) => {
        finished.push('slow');
        return res;
      });
      // Let the long compile start, pass the quick lane's budget and reach the main lane (and
      // the lane's replacement worker start).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(finished).toEqual([]);
      const small = await sendModel(
        ctx,
        'post',
        `/v1/suppliers/${otherSupplierId}/models`,
        otherToken,
        minimalModel('SMALL'),
      );
      finished.push('small');
      expect(small.status, JSON.stringify(small.body)).toBe(201);
      const slowAnswer = await slow;
      expect(slowAnswer.status, JSON.stringify(slowAnswer.body)).toBe(201);
      expect(finished).toEqual(['small', 'slow']);
    },
  );
});
