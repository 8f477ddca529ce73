import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigurationFacts } from '../../../src/access/access.repository.js';
import { AccessService } from '../../../src/access/access.service.js';
import type { Principal } from '../../../src/principal/principal.js';
import { CompaniesService } from '../../../src/companies/companies.service.js';
import { MembershipsService } from '../../../src/memberships/memberships.service.js';
import { ModelRepository } from '../../../src/models/model.repository.js';
import { ModelsService } from '../../../src/models/models.service.js';
import { SuppliersService } from '../../../src/suppliers/suppliers.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { refusalStatus } from '../../support/cart.factories.js';
import { companyBody, supplierBody } from '../../support/org.factories.js';
import {
  createServiceContext,
  viaIntent,
  type ServiceContext,
} from '../../support/service-context.js';
import { createServiceWorld, upload, type ServiceWorld } from '../../support/service-world.js';

/** Every rule of AccessService, and the services asking it whoever calls them. */
describe('AccessService', () => {
  let ctx: ServiceContext;
  let access: AccessService;
  let w: ServiceWorld;

  beforeAll(async () => {
    ctx = await createServiceContext();
    access = ctx.get(AccessService);
    w = await createServiceWorld(ctx);
  });
  afterAll(() => ctx?.close());

  it('companies: admins see all, members theirs, an intent token its own; else 404', async () => {
    expect(await access.canSeeCompany(ctx.operator, w.companyA)).toBe(true);
    expect(await access.canSeeCompany(w.alice, w.companyA)).toBe(true);
    expect(await access.canSeeCompany(w.bob, w.companyA)).toBe(false);
    expect(await access.canSeeCompany(viaIntent(w.alice, w.companyA), w.companyA)).toBe(true);
    expect(await access.canSeeCompany(viaIntent(w.alice, w.companyA), w.companyA + 1)).toBe(false);
    expect(await access.canSeeCompany(ctx.operator, 999_999)).toBe(false);
    expect(await refusalStatus(access.requireCompany(w.bob, w.companyA))).toBe(404);

    expect(await access.visibleCompanyIds(ctx.operator)).toBe('all');
    expect(await access.visibleCompanyIds(w.alice)).toEqual([w.companyA]);
    expect(await access.visibleCompanyIds(viaIntent(w.alice, w.companyA))).toEqual([w.companyA]);
    expect(await access.visibleCompanyIds(w.bob)).toEqual([]);
    expect(() => access.requireMayCreateCompany(viaIntent(w.alice, w.companyA))).toThrow(
      'An intent token may not create a company',
    );
  });

  it('suppliers: members and admins manage; buyers read; anyone else 404 or the route status', async () => {
    expect(await refusalStatus(access.requireSupplierMember(w.sam, w.supplierS))).toBe('resolved');
    expect(await refusalStatus(access.requireSupplierMember(ctx.operator, w.supplierS))).toBe(
      'resolved',
    );
    expect(await refusalStatus(access.requireSupplierMember(w.alice, w.supplierS))).toBe(403);
    // The seed contract's POST /v1/suppliers/{id}/models answers 401 instead.
    expect(await refusalStatus(access.requireSupplierMember(w.alice, w.supplierS, 401))).toBe(401);
    expect(await refusalStatus(access.requireSupplierMember(w.sam, 999_999))).toBe(404);

    expect(await access.canReadSupplier(w.alice, w.supplierS)).toBe(true);
    expect(await access.canReadSupplier(viaIntent(w.alice, w.companyA), w.supplierS)).toBe(true);
    expect(await access.canReadSupplier(w.alice, w.supplierT)).toBe(false);
    expect(await access.canReadSupplier(w.bob, w.supplierS)).toBe(false);
    expect(await refusalStatus(access.requireReadableSupplier(w.bob, w.supplierS))).toBe(404);
  });

  it('models: readers read (else 404), members write (readers 403, others 404)', async () => {
    const m = await ctx.get(ModelRepository).findById(w.modelM);
    expect(await access.requireReadableModel(w.alice, m)).toBe(m);
    expect(await refusalStatus(access.requireReadableModel(w.bob, m))).toBe(404);
    expect(await refusalStatus(access.requireReadableModel(w.alice, null))).toBe(404);
    expect(await access.requireWritableModel(w.sam, m)).toBe(m);
    expect(await refusalStatus(access.requireWritableModel(w.alice, m))).toBe(403);
    expect(await refusalStatus(access.requireWritableModel(w.bob, m))).toBe(404);

    expect(access.mayReleaseLock(w.alice, null)).toBe(true);
    expect(access.mayReleaseLock(w.sam, w.sam.userId)).toBe(true);
    expect(access.mayReleaseLock(w.sam, w.alice.userId)).toBe(false);
    expect(access.mayReleaseLock(ctx.operator, w.alice.userId)).toBe(true);

    const assetOf = (companyId: number) => access.requireCompanyModel(w.alice, companyId, m);
    expect(await assetOf(w.companyA)).toBe(m);
    expect(await refusalStatus(access.requireCompanyModel(w.bob, w.companyA, m))).toBe(404);
  });

  it('configuring: the same 403 for an unseen company, a missing model and an unlinked one', async () => {
    const configurable = (principal = w.alice, modelId = w.modelM) =>
      access.requireConfigurable(principal, w.companyA, modelId);
    expect(await refusalStatus(configurable())).toBe('resolved');
    expect(await refusalStatus(configurable(w.bob))).toBe(403);
    expect(await refusalStatus(configurable(w.alice, 999_999))).toBe(403);
    expect(await refusalStatus(configurable(w.alice, w.modelN))).toBe(403);
    expect(await refusalStatus(configurable(viaIntent(w.alice, w.companyA)))).toBe('resolved');
    expect(await refusalStatus(configurable(viaIntent(w.alice, w.companyA + 1)))).toBe(403);
  });

  it('configuring on facts read with a line: the fact it names, the same decisions', () => {
    expect(access.configurationFact(w.alice)).toBe('member');
    expect(access.configurationFact(ctx.operator)).toBe('companyExists');
    expect(access.configurationFact(viaIntent(w.alice, w.companyA))).toBeNull();
    const model = { id: w.modelM, supplierId: w.supplierS, versionNumber: 1, retired: false };
    const facts: ConfigurationFacts = { companyVisible: true, model, linked: true };
    const status = (principal: Principal, read: Partial<ConfigurationFacts>) => {
      try {
        access.requireConfigurableOn(principal, w.companyA, { ...facts, ...read });
        return 'allowed';
      } catch (error) {
        return (error as { status: number }).status;
      }
    };
    expect(status(w.alice, {})).toBe('allowed');
    expect(status(w.alice, { companyVisible: false })).toBe(403);
    expect(status(w.alice, { linked: false })).toBe(403);
    expect(status(w.alice, { model: null })).toBe(403);
    // An intent token is judged by its company, whatever a company fact would say.
    expect(status(viaIntent(w.alice, w.companyA), { companyVisible: false })).toBe('allowed');
    expect(status(viaIntent(w.alice, w.companyA + 1), {})).toBe(403);
  });

  it('carts: personal, and through an intent token only those of its company', () => {
    const intent = viaIntent(w.alice, w.companyA);
    expect(access.cartScope(w.alice)).toEqual({ userId: w.alice.userId });
    expect(access.cartScope(intent)).toEqual({ userId: w.alice.userId, companyId: w.companyA });
    const own = { userId: w.alice.userId, companyId: null };
    const ofCompany = { userId: w.alice.userId, companyId: w.companyA };
    expect(access.canSeeCart(w.alice, own)).toBe(true);
    expect(access.canSeeCart(intent, own)).toBe(false);
    expect(access.canSeeCart(intent, ofCompany)).toBe(true);
    expect(access.canSeeCart(ctx.operator, own)).toBe(false);
    expect(access.cartCompanyProblems(ofCompany, w.companyA)).toEqual([]);
    expect(access.cartCompanyProblems(ofCompany, w.companyA + 1)[0].code).toBe(
      'cart_company_mismatch',
    );
  });

  it('services ask it for every caller: no path around the rules, the CLI included', async () => {
    expect(
      await refusalStatus(
        ctx.get(UsersService).create(w.alice, { email: 'x@example.test', password: 'password-1' }),
      ),
    ).toBe(403);
    const suppliers = ctx.get(SuppliersService);
    expect(await refusalStatus(suppliers.create(w.alice, w.companyA, supplierBody()))).toBe(403);
    expect(await refusalStatus(suppliers.addMember(w.sam, w.supplierS, w.bob.userId))).toBe(403);
    expect(await refusalStatus(suppliers.get(w.bob, w.supplierS))).toBe(404);
    const companies = ctx.get(CompaniesService);
    expect(await refusalStatus(companies.get(w.bob, w.companyA))).toBe(404);
    expect(
      await refusalStatus(companies.create(viaIntent(w.alice, w.companyA), companyBody())),
    ).toBe(403);
    const memberships = ctx.get(MembershipsService);
    const toA = { kind: 'company' as const, id: w.companyA };
    // Adding by id is for admins only (others invite by email).
    expect(await refusalStatus(memberships.add(w.bob, toA, w.bob.userId))).toBe(403);
    expect(
      await refusalStatus(ctx.get(ModelsService).create(w.alice, w.supplierS, upload('X'))),
    ).toBe(403);
    // The operator is an admin principal, explicitly.
    expect(await refusalStatus(memberships.add(ctx.operator, toA, w.bob.userId))).toBe('resolved');
  });
});
