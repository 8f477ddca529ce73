import type { Principal } from '../principal/principal.js';
import type { AccessRepository } from './access.repository.js';

/**
 * AccessRepository's facts, with the ones found true remembered for the principal that
 * asked. The guard runs a route's rule and the service runs it again with the very same
 * principal object (one per request), so the second check costs no query; a WeakMap
 * keyed by that object forgets everything with the request. Only true answers are kept:
 * a request that creates what it then checks (a company, a link) must not be answered
 * by an earlier "no". A long-lived principal (the CLI's, a test's) keeps its memo longer,
 * so a grant it saw stays granted to that object: only withdrawing one in between and
 * checking again with the same object could tell, and no request does that.
 */
export class RememberedFacts {
  private readonly known = new WeakMap<object, Set<string>>();

  constructor(private readonly facts: AccessRepository) {}

  companyExists(principal: object, companyId: number): Promise<boolean> {
    return this.remember(principal, `company ${companyId}`, () =>
      this.facts.companyExists(companyId),
    );
  }

  supplierExists(principal: object, supplierId: number): Promise<boolean> {
    return this.remember(principal, `supplier ${supplierId}`, () =>
      this.facts.supplierExists(supplierId),
    );
  }

  isCompanyMember(principal: Pick<Principal, 'userId'>, companyId: number): Promise<boolean> {
    return this.remember(principal, `company member ${companyId}`, () =>
      this.facts.isCompanyMember(companyId, principal.userId),
    );
  }

  isSupplierMember(principal: Pick<Principal, 'userId'>, supplierId: number): Promise<boolean> {
    return this.remember(principal, `supplier member ${supplierId}`, () =>
      this.facts.isSupplierMember(supplierId, principal.userId),
    );
  }

  anyLinked(principal: object, companyIds: number[], supplierId: number): Promise<boolean> {
    return this.remember(principal, `linked ${supplierId} ${companyIds.join(',')}`, () =>
      this.facts.anyLinked(companyIds, supplierId),
    );
  }

  private async remember(
    principal: object,
    key: string,
    read: () => Promise<boolean>,
  ): Promise<boolean> {
    const seen = this.known.get(principal);
    if (seen?.has(key)) return true;
    const value = await read();
    if (value) {
      if (seen) seen.add(key);
      else this.known.set(principal, new Set([key]));
    }
    return value;
  }
}
