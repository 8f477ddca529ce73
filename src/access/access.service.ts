import { Injectable } from '@nestjs/common';
import { ApiError, type Problem } from '../common/errors/api-error.js';
import { isAdmin, type Principal } from '../principal/principal.js';
import { AccessRepository, type ConfigurableModel } from './access.repository.js';
import { canSeeCart, cartCompanyOf, cartCompanyProblems, cartScope } from './cart-rules.js';
import { companyVisibility } from './company-visibility.js';
import { configurationFact, requireConfigurableOn } from './configuration-rules.js';
import { RememberedFacts } from './remembered-facts.js';

/** What the model rules need of a model row. */
export interface OwnedModel {
  supplierId: number;
}

const NOT_A_MEMBER: Problem = {
  code: 'not_a_member',
  message: 'You are not a member of this supplier',
};

/**
 * Who may see and do what (docs/api.md, "The seed contract"): the one place that decides. The
 * route decorator's options (`@Auth(..., { role, supplierMember, companyMember })`)
 * call it from the global guard, and every service method that acts for a caller calls
 * it again with the caller it was given (the CLI passes a system principal), so that
 * no path reaches data without a decision from here. `require…` methods throw the
 * documented status; `can…`/`is…` answer a boolean for callers that word their own.
 */
@Injectable()
export class AccessService {
  /** The facts, with true ones remembered per principal (= per request; see RememberedFacts). */
  private readonly facts: RememberedFacts;

  constructor(private readonly repository: AccessRepository) {
    this.facts = new RememberedFacts(repository);
  }

  // ── Carts (cart-rules.ts: decided on the caller and the cart row alone) ──────────

  readonly cartScope = cartScope;
  readonly canSeeCart = canSeeCart;
  readonly cartCompanyOf = cartCompanyOf;
  readonly cartCompanyProblems = cartCompanyProblems;

  // ── Users ──────────────────────────────────────────────────────────────────────

  /** Admins only (403). */
  requireAdmin(principal: Principal): void {
    if (!isAdmin(principal)) throw ApiError.forbidden('Only admins may do this');
  }

  /** PATCH /v1/users/{id}: admins, and not on themselves (no admin locks the last one out). */
  requireUserAdministration(principal: Principal, userId: number): void {
    this.requireAdmin(principal);
    if (principal.userId === userId) {
      throw ApiError.conflict('Admins cannot change their own role or disable themselves', [
        { code: 'self_change', message: 'Ask another admin', path: 'id' },
      ]);
    }
  }

  // ── Memberships and invitations ─────────────────────────────────────────────────

  /**
   * Removing `userId` from a company's or supplier's members: admins, or the member
   * themself (leaving). The owner must exist for admins (404); anyone else who may see
   * the company gets 403, and 404 otherwise, as if it did not exist.
   */
  async requireMemberRemoval(
    principal: Principal,
    owner: { kind: 'company' | 'supplier'; id: number },
    userId: number,
  ): Promise<void> {
    const exists =
      owner.kind === 'company'
        ? await this.facts.companyExists(principal, owner.id)
        : await this.facts.supplierExists(principal, owner.id);
    if (!exists) throw ApiError.notFound();
    if (isAdmin(principal) || principal.userId === userId) return;
    const sees =
      owner.kind === 'company'
        ? await this.canSeeCompany(principal, owner.id)
        : await this.isSupplierMember(principal, owner.id);
    if (sees) throw ApiError.forbidden('Only admins remove other members');
    throw ApiError.notFound();
  }

  /** An invitation is its invitee's alone: another caller gets 404, as if there were none. */
  requireInvitee<T extends { email: string; acceptedAt: Date | null }>(
    principal: Principal,
    invitation: T | null,
  ): T {
    if (!invitation || invitation.acceptedAt || invitation.email !== principal.email) {
      throw ApiError.notFound('No invitation found');
    }
    return invitation;
  }

  /**
   * Whose email a member answer may carry: the caller's own only (docs/api.md, "The seed contract":
   * no answer carries another user's email unless the caller gave it).
   */
  mayReadEmailOf(principal: Principal, userId: number): boolean {
    return principal.userId === userId;
  }

  // ── Companies ──────────────────────────────────────────────────────────────────

  /** A company the caller may see: admin, member, or the intent token's own company. */
  async canSeeCompany(principal: Principal, companyId: number): Promise<boolean> {
    const rule = companyVisibility(principal, companyId);
    if (typeof rule === 'boolean') return rule;
    return rule === 'companyExists'
      ? this.facts.companyExists(principal, companyId)
      : this.facts.isCompanyMember(principal, companyId);
  }

  /** The company is visible to the caller, or 404 exactly as if it did not exist. */
  async requireCompany(principal: Principal, companyId: number): Promise<void> {
    if (!(await this.canSeeCompany(principal, companyId))) {
      throw ApiError.notFound('No company found');
    }
  }

  /** The user may act for the company: an admin, or one of its members. */
  async isCompanyMember(
    user: Pick<Principal, 'userId' | 'role'>,
    companyId: number,
  ): Promise<boolean> {
    if (isAdmin(user)) return true;
    return this.facts.isCompanyMember(user, companyId);
  }

  /** An intent token is bound to one existing company, so it may not create another (403). */
  requireMayCreateCompany(principal: Principal): void {
    if (principal.via === 'intent') {
      throw ApiError.forbidden('An intent token may not create a company', [
        { code: 'intent_not_allowed', message: 'Log in to create a company' },
      ]);
    }
  }

  /**
   * The companies the caller may see: every one (`'all'`: admins, except through an
   * intent token), else the ids of its memberships (an intent token: its company).
   */
  async visibleCompanyIds(principal: Principal): Promise<'all' | number[]> {
    if (principal.via !== 'intent' && isAdmin(principal)) return 'all';
    return this.companyIdsOf(principal);
  }

  // ── Suppliers ──────────────────────────────────────────────────────────────────

  async isSupplierMember(principal: Principal, supplierId: number): Promise<boolean> {
    if (isAdmin(principal)) return true;
    return this.facts.isSupplierMember(principal, supplierId);
  }

  /** The supplier exists (404) and the caller is a member or admin (else `notMemberStatus`). */
  async requireSupplierMember(
    principal: Principal,
    supplierId: number,
    notMemberStatus = 403,
  ): Promise<void> {
    if (!(await this.facts.supplierExists(principal, supplierId))) {
      throw ApiError.notFound('The supplier does not exist');
    }
    if (!(await this.isSupplierMember(principal, supplierId))) {
      // The seed contract's wording for POST /v1/suppliers/{id}/models (401).
      throw new ApiError(notMemberStatus, 'User is not part of this supplier', [NOT_A_MEMBER]);
    }
  }

  /**
   * May the caller read the supplier (and its models)? Its members may, and so may
   * members of companies linked to the supplier (an intent token: only through its company).
   */
  async canReadSupplier(principal: Principal, supplierId: number): Promise<boolean> {
    if (principal.via !== 'intent' && (await this.isSupplierMember(principal, supplierId))) {
      return true;
    }
    return this.facts.anyLinked(principal, await this.companyIdsOf(principal), supplierId);
  }

  /** The supplier exists and the caller may read it; else `notFound` (404 as if it did not exist). */
  async requireReadableSupplier(
    principal: Principal,
    supplierId: number,
    notFound: () => ApiError = () => ApiError.notFound('The supplier does not exist'),
  ): Promise<void> {
    const readable =
      (await this.facts.supplierExists(principal, supplierId)) &&
      (await this.canReadSupplier(principal, supplierId));
    if (!readable) throw notFound();
  }

  // ── Models ─────────────────────────────────────────────────────────────────────

  /** Readable by the supplier's readers (see canReadSupplier); else 404. */
  async requireReadableModel<T extends OwnedModel>(
    principal: Principal,
    model: T | null,
  ): Promise<T> {
    if (!model || !(await this.canReadSupplier(principal, model.supplierId))) {
      throw ApiError.notFound('No model found');
    }
    return model;
  }

  /** The supplier's members may change it; readers who may not get 403, anyone else 404. */
  async requireWritableModel<T extends OwnedModel>(
    principal: Principal,
    model: T | null,
  ): Promise<T> {
    if (!model) throw ApiError.notFound('No model found');
    if (await this.isSupplierMember(principal, model.supplierId)) return model;
    if (!(await this.canReadSupplier(principal, model.supplierId))) {
      throw ApiError.notFound('No model found');
    }
    throw ApiError.forbidden("Only the supplier's members may change its models", [NOT_A_MEMBER]);
  }

  /** The edit lock is released by its holder or an admin (the caller words the 423). */
  mayReleaseLock(principal: Principal, holderId: number | null): boolean {
    return holderId === null || holderId === principal.userId || isAdmin(principal);
  }

  /** A model of a supplier the company buys from, for a company the caller may see; else 404. */
  async requireCompanyModel<T extends OwnedModel>(
    principal: Principal,
    companyId: number,
    model: T | null,
  ): Promise<T> {
    await this.requireCompany(principal, companyId);
    if (!model || !(await this.facts.anyLinked(principal, [companyId], model.supplierId))) {
      throw ApiError.notFound('No model found');
    }
    return model;
  }

  /**
   * The caller may configure the model for the company: sees the company, the model
   * exists, its supplier is linked to the company. Otherwise 403, the same answer for
   * each, so that nothing is learned about models the caller may not use. The facts
   * come in one query (POST /v1/carts and the preview ask on every request); answers
   * the model's supplier and current version.
   */
  async requireConfigurable(
    principal: Principal,
    companyId: number,
    modelId: number,
  ): Promise<ConfigurableModel> {
    const rule = companyVisibility(principal, companyId);
    // Only the company fact the rule reads is queried; an intent token's own company is
    // known, and another company needs no query at all.
    const facts =
      rule === false
        ? null
        : await this.repository.configuration(
            companyId,
            modelId,
            principal.userId,
            rule === true ? null : rule,
          );
    return requireConfigurableOn(principal, companyId, facts);
  }

  /** The company fact a read beside the line selects (configuration-rules.ts). */
  readonly configurationFact = configurationFact;
  /** requireConfigurable's decision on facts already read (configuration-rules.ts). */
  readonly requireConfigurableOn = requireConfigurableOn;

  /** The companies a non-admin caller belongs to (an intent token: its company). */
  private async companyIdsOf(principal: Principal): Promise<number[]> {
    if (principal.via === 'intent') return principal.companyId ? [principal.companyId] : [];
    return this.repository.companyIdsOf(principal.userId);
  }
}
