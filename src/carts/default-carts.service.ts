import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { ApiError, type Problem } from '../common/errors/api-error.js';
import { isUuid } from '../common/http/id-param.js';
import { isUniqueViolation } from '../database/db-errors.js';
import type { Principal } from '../principal/principal.js';
import type { CartEntity } from './cart.entity.js';
import { CartRepository, type CartLineReader } from './cart.repository.js';
import type { CreateCartDto } from './dto/create-cart.dto.js';
import { NewCartRepository } from './new-cart.repository.js';
import type { CommitStep } from '../database/transaction-runner.js';

/** The reference of a default cart created on the caller's behalf (docs/api.md, "The seed contract"). */
export const DEFAULT_CART_REFERENCE = 'default';

/** Re-reads after losing a race for the default; the winner is committed by then. */
const CLAIM_ATTEMPTS = 3;

const raceLost = () =>
  ApiError.conflict('The default cart is being changed concurrently; try again');

export function cartNotFound(message: string, path?: string): Problem {
  return path === undefined ? { code: 'not_found', message } : { code: 'not_found', message, path };
}

/**
 * The cart rows behind the cart routes: creating carts while keeping exactly one
 * default per user, finding the cart a caller may see, and choosing and checking the
 * cart a new line goes into. Who sees which cart is AccessService's (cartScope,
 * canSeeCart); see docs/adr/0013-one-default-cart.md.
 */
@Injectable()
export class DefaultCarts {
  constructor(
    private readonly carts: CartRepository,
    private readonly newCarts: NewCartRepository,
    private readonly access: AccessService,
  ) {}

  /**
   * A new cart. The caller's first cart (more exactly: a cart made while they have no
   * default) becomes their default; `default: true` moves the default to the new cart.
   * `step` commits with it (the request's idempotency key).
   */
  create(
    principal: Principal,
    input: CreateCartDto,
    step?: CommitStep<CartEntity>,
  ): Promise<CartEntity> {
    const cart = {
      id: randomUUID(),
      userId: principal.userId,
      companyId: this.access.cartCompanyOf(principal),
      reference: input.reference,
    };
    return this.newCarts.create(cart, input.default === true ? 'move' : 'if_none', step);
  }

  /** A cart the caller may see, or 404 exactly as if it did not exist. */
  async getVisible(principal: Principal, cartId: string): Promise<CartEntity> {
    const cart = isUuid(cartId)
      ? await this.carts.findIn(this.access.cartScope(principal), cartId.toLowerCase())
      : null;
    if (!cart) {
      throw ApiError.notFound('Cart not found', [cartNotFound('Cart not found', 'cart_id')]);
    }
    return cart;
  }

  /**
   * The cart a new line goes into (POST /v1/carts): the named cart (404 if the caller
   * may not see it), else the caller's default cart, created with reference "default"
   * when the caller has none. Concurrent callers all get the same default cart: a
   * losing insert hits `uq_carts_one_default_per_user` and re-reads the winner.
   * An intent token whose user's default cart belongs to another company gets the
   * user's cart for its company instead (intentCart): a shopper is never refused
   * because of the cart the server chose (docs/adr/0165-intent-carts.md).
   */
  async resolveTargetCart(principal: Principal, cartId?: string): Promise<CartEntity> {
    if (cartId !== undefined) return this.getVisible(principal, cartId);
    for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt += 1) {
      const current = await this.carts.findDefault(principal.userId);
      if (current && this.access.canSeeCart(principal, current)) return current;
      // Only an intent token fails to see its user's default: it is another company's.
      if (current) return this.intentCart(principal);
      const created = await this.tryInsertDefault(principal, DEFAULT_CART_REFERENCE);
      if (created) return created;
    }
    throw raceLost();
  }

  /**
   * The one cart of the intent's user and company that its adds use when the default
   * cart is not theirs (or cannot take the line), made on first use; a concurrent first
   * use loses on `uq_carts_one_intent_cart_per_user_and_company` and re-reads the winner.
   */
  async intentCart(principal: Principal): Promise<CartEntity> {
    const companyId = this.access.cartCompanyOf(principal);
    if (companyId === null) throw new Error('intentCart: the caller is not an intent token');
    for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt += 1) {
      const found = await this.carts.findIntentCart(principal.userId, companyId);
      if (found) return found;
      try {
        return await this.carts.insert({
          id: randomUUID(),
          userId: principal.userId,
          companyId,
          reference: DEFAULT_CART_REFERENCE,
          isDefault: false,
          isIntentCart: true,
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw raceLost();
  }

  /**
   * Why a line may not go into `cart` (empty when it may). A cart holds one currency
   * and one company's lines: a cart recorded with a company (an intent token's) only
   * that company's (AccessService), so that an intent token never sees another
   * company's configurations; any other cart the company of its first line.
   */
  async lineProblems(
    cart: CartEntity,
    companyId: number,
    currency: string,
    lines: CartLineReader = this.carts,
  ): Promise<Problem[]> {
    const problems = this.access.cartCompanyProblems(cart, companyId);
    // A cart holds one company's lines: its company is what they say (CartDto.company_id).
    const otherCompany = problems.length > 0 ? null : await lines.otherCompany(cart.id, companyId);
    if (otherCompany !== null) {
      problems.push(
        ...this.access.cartCompanyProblems({ ...cart, companyId: otherCompany }, companyId),
      );
    }
    const other = await lines.otherCurrency(cart.id, currency);
    if (other !== null) {
      problems.push({
        code: 'currency_mismatch',
        message: `This cart holds ${other} lines; a ${currency} line cannot join them`,
      });
    }
    return problems;
  }

  /** Inserts a default cart; null when another cart became the default first. */
  private async tryInsertDefault(
    principal: Principal,
    reference: string,
  ): Promise<CartEntity | null> {
    try {
      return await this.insert(principal, reference, true);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  private insert(principal: Principal, reference: string, isDefault: boolean): Promise<CartEntity> {
    return this.carts.insert({
      id: randomUUID(),
      userId: principal.userId,
      companyId: this.access.cartCompanyOf(principal),
      reference,
      isDefault,
    });
  }
}
