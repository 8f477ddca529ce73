import type { NewCartLineRow } from '../../src/carts/cart.repository.js';
import { CompaniesService } from '../../src/companies/companies.service.js';
import { ModelsService } from '../../src/models/models.service.js';
import type { Principal } from '../../src/principal/principal.js';
import { SuppliersService } from '../../src/suppliers/suppliers.service.js';
import { unique } from './factories.js';
import { minimalModel } from './model.factories.js';
import { companyBody, supplierBody } from './org.factories.js';
import type { ServiceContext } from './service-context.js';

/**
 * The organisations the service tests share, made through the services themselves:
 * `alice` is a member of company A, which buys from supplier S (member: `sam`, who
 * uploaded model M); supplier T sells model N to company B (carol's); `bob` belongs to
 * nothing.
 */
export interface ServiceWorld {
  alice: Principal;
  bob: Principal;
  sam: Principal;
  companyA: number;
  supplierS: number;
  supplierT: number;
  modelM: number;
  modelN: number;
}

export async function createServiceWorld(ctx: ServiceContext): Promise<ServiceWorld> {
  const [alice, bob, sam, carol] = [
    await ctx.newMember(),
    await ctx.newMember(),
    await ctx.newMember(),
    await ctx.newMember(),
  ];
  const companies = ctx.get(CompaniesService);
  const suppliers = ctx.get(SuppliersService);
  const companyA = (await companies.create(alice, companyBody())).id;
  const companyB = (await companies.create(carol, companyBody())).id;
  const supplierS = (await suppliers.create(ctx.operator, companyA, supplierBody())).id;
  const supplierT = (await suppliers.create(ctx.operator, companyB, supplierBody())).id;
  await suppliers.addMember(ctx.operator, supplierS, sam.userId);
  const models = ctx.get(ModelsService);
  const modelM = (await models.create(sam, supplierS, upload(unique('M')))).id;
  const modelN = (await models.create(ctx.operator, supplierT, upload(unique('N')))).id;
  return { alice, bob, sam, companyA, supplierS, supplierT, modelM, modelN };
}

/** An upload reader for a small valid JSON model. */
export const upload = (code: string) => async () => ({
  bytes: Buffer.from(JSON.stringify(minimalModel(code))),
  format: 'json' as const,
});

/** A stored cart line of the world's model M for company A, in `currency` (no answers). */
export const lineRow = (w: ServiceWorld, cartId: string, currency: string): NewCartLineRow => ({
  cartId,
  modelId: w.modelM,
  versionNumber: 1,
  companyId: w.companyA,
  languageCode: null,
  answers: {},
  line: {},
  total: '1.00',
  currency,
});
