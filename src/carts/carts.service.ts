import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager, type FindOptionsWhere } from 'typeorm';
import type { Principal } from '../auth/principal.js';
import { ApiError, type Problem } from '../common/errors/api-error.js';
import { isUuid } from '../common/http/id-param.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { isUniqueViolation } from '../database/db-errors.js';
import { CartLineEntity } from './cart-line.entity.js';
import { CartEntity } from './cart.entity.js';
import { DefaultCartStore } from './default-cart.store.js';
import type { CreateCartDto } from './dto/create-cart.dto.js';

/** The reference of a default cart created on the caller's behalf (DESIGN.md, POST /v1/carts). */
export const DEFAULT_CART_REFERENCE = 'default';

/** Re-reads after losing a race for the default; the winner is committed by then. */
const CLAIM_ATTEMPTS = 3;

/**
 * Carts are personal: only their user sees them, admins included. An intent token
 * acts as its user but sees only the carts recorded with its company (the carts it,
 * or another token of that company, created). See docs/DECISIONS.md, "Carts".
 */
@Injectable()
export class CartsService {
  constructor(
    @InjectRepository(CartEntity) private readonly carts: Repository<CartEntity>,
    @InjectRepository(CartLineEntity) private readonly lines: Repository<CartLineEntity>,
    private readonly defaults: DefaultCartStore,
  ) {}

  /**
   * A new cart. The caller's first cart (more exactly: a cart made while they have no
   * default) becomes their default; `default: true` moves the default to the new cart.
   */
  async create(principal: Principal, input: CreateCartDto): Promise<CartEntity> {
    if (input.default === true) {
      const cart = await this.insert(principal, input.reference, false);
      try {
        await this.defaults.moveDefault(principal.userId, cart.id);
      } catch (error) {
        await this.carts.delete({ id: cart.id });
        throw error;
      }
      cart.isDefault = true;
      return cart;
    }
    if (!(await this.carts.existsBy({ userId: principal.userId, isDefault: true }))) {
      const claimed = await this.tryInsertDefault(principal, input.reference);
      if (claimed) return claimed;
    }
    return this.insert(principal, input.reference, false);
  }

  /** One page of the caller's carts, oldest first; 400 when the caller has none. */
  async list(principal: Principal, query: PageQueryDto): Promise<[CartEntity[], number]> {
    const [carts, total] = await this.carts.findAndCount({
      where: this.scope(principal),
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: query.offset,
      take: query.per_page,
    });
    if (total === 0) throw ApiError.badRequest('Carts not found', [notFound('Carts not found')]);
    return [carts, total];
  }

  /** The caller's default cart; 400 when there is none the caller may see. */
  async getDefault(principal: Principal): Promise<CartEntity> {
    const cart = await this.carts.findOneBy({ ...this.scope(principal), isDefault: true });
    if (!cart) throw ApiError.badRequest('Cart was not found', [notFound('Cart was not found')]);
    return cart;
  }

  /** A cart the caller may see, or 404 exactly as if it did not exist. */
  async getVisible(principal: Principal, cartId: string): Promise<CartEntity> {
    const cart = isUuid(cartId)
      ? await this.carts.findOneBy({ ...this.scope(principal), id: cartId.toLowerCase() })
      : null;
    if (!cart) throw ApiError.notFound('Cart not found', [notFound('Cart not found', 'cart_id')]);
    return cart;
  }

  /** A visible cart with its lines, oldest line first. */
  async getWithLines(
    principal: Principal,
    cartId: string,
  ): Promise<{ cart: CartEntity; lines: CartLineEntity[] }> {
    const cart = await this.getVisible(principal, cartId);
    return { cart, lines: await this.linesOf(cart) };
  }

  /** Removes one line of a visible cart (404 for a line not in it); answers the cart left. */
  async removeLine(
    principal: Principal,
    cartId: string,
    lineId: number,
  ): Promise<{ cart: CartEntity; lines: CartLineEntity[] }> {
    const cart = await this.getVisible(principal, cartId);
    const { affected } = await this.lines.delete({ id: lineId, cartId: cart.id });
    if (!affected) {
      throw ApiError.notFound('Cart line not found', [notFound('Cart line not found', 'line_id')]);
    }
    return { cart, lines: await this.linesOf(cart) };
  }

  private linesOf(cart: CartEntity): Promise<CartLineEntity[]> {
    return this.lines.find({ where: { cartId: cart.id }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * The cart a new line goes into (POST /v1/carts): the named cart (404 if the caller
   * may not see it), else the caller's default cart, created with reference "default"
   * when the caller has none. Concurrent callers all get the same default cart: a
   * losing insert hits `uq_carts_one_default_per_user` and re-reads the winner.
   * An intent token whose user's default cart belongs to another company gets 403:
   * it must name a cart or move the default (POST /v1/carts/new `default: true`).
   */
  async resolveTargetCart(principal: Principal, cartId?: string): Promise<CartEntity> {
    if (cartId !== undefined) return this.getVisible(principal, cartId);
    for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt += 1) {
      const current = await this.carts.findOneBy({ userId: principal.userId, isDefault: true });
      if (current && this.canSee(principal, current)) return current;
      if (current) {
        throw ApiError.forbidden('Your default cart belongs to another company', [
          {
            code: 'default_cart_not_accessible',
            message:
              'The default cart was not created for this company: name a cart_id, ' +
              'or create a cart with default: true',
            path: 'cart_id',
          },
        ]);
      }
      const created = await this.tryInsertDefault(principal, DEFAULT_CART_REFERENCE);
      if (created) return created;
    }
    throw ApiError.conflict('The default cart is being changed concurrently; try again');
  }

  /**
   * Why a line may not go into `cart` (empty when it may). A cart holds one currency,
   * and a cart recorded with a company only holds that company's lines, so that an
   * intent token never sees another company's configurations. For POST /v1/carts.
   */
  async lineProblems(
    cart: CartEntity,
    companyId: number,
    currency: string,
    manager: EntityManager = this.lines.manager,
  ): Promise<Problem[]> {
    const problems: Problem[] = [];
    if (cart.companyId !== null && cart.companyId !== companyId) {
      problems.push({
        code: 'cart_company_mismatch',
        message: `This cart holds lines of company ${cart.companyId} only`,
        path: 'company_id',
      });
    }
    const other = await manager
      .createQueryBuilder(CartLineEntity, 'line')
      .where('line.cart_id = :cartId', { cartId: cart.id })
      .andWhere('line.currency <> :currency', { currency })
      .select('line.currency', 'currency')
      .getRawOne<{ currency: string }>();
    if (other) {
      problems.push({
        code: 'currency_mismatch',
        message: `This cart holds ${other.currency} lines; a ${currency} line cannot join them`,
      });
    }
    return problems;
  }

  /**
   * Holds the cart row until the transaction ends, so that checking a new line against
   * the cart's lines and inserting it cannot interleave with another line's (PostgreSQL;
   * SQLite transactions already run one at a time, see TransactionRunner).
   */
  async lockForNewLine(manager: EntityManager, cartId: string): Promise<void> {
    if (manager.connection.options.type !== 'postgres') return;
    await manager.query('SELECT "id" FROM "carts" WHERE "id" = $1 FOR UPDATE', [cartId]);
  }

  /** Which of the user's carts the principal sees (see the class comment). */
  private scope(principal: Principal): FindOptionsWhere<CartEntity> {
    if (principal.via !== 'intent') return { userId: principal.userId };
    // Intent tokens always carry a company; ids start at 1, so 0 matches nothing.
    return { userId: principal.userId, companyId: principal.companyId ?? 0 };
  }

  private canSee(principal: Principal, cart: CartEntity): boolean {
    if (cart.userId !== principal.userId) return false;
    return principal.via !== 'intent' || cart.companyId === principal.companyId;
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

  private async insert(
    principal: Principal,
    reference: string,
    isDefault: boolean,
  ): Promise<CartEntity> {
    const cart = this.carts.create({
      id: randomUUID(),
      userId: principal.userId,
      companyId: principal.via === 'intent' ? principal.companyId : null,
      reference,
      isDefault,
    });
    await this.carts.insert(cart);
    return cart;
  }
}

function notFound(message: string, path?: string): Problem {
  return path === undefined ? { code: 'not_found', message } : { code: 'not_found', message, path };
}
