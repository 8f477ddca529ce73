import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import type { Principal } from '../principal/principal.js';
import type { CartEntity } from './cart.entity.js';
import { CartRepository } from './cart.repository.js';
import { cartNotFound, DefaultCarts } from './default-carts.service.js';
import { CartDetailDto } from './dto/cart-detail.dto.js';
import { CartDto } from './dto/cart.dto.js';
import type { CreateCartDto } from './dto/create-cart.dto.js';

/**
 * The cart routes. Carts are personal: only their user sees them, admins included. An
 * intent token acts as its user but sees only the carts recorded with its company.
 */
@Injectable()
export class CartsService {
  constructor(
    private readonly carts: CartRepository,
    private readonly defaults: DefaultCarts,
    private readonly access: AccessService,
  ) {}

  async create(principal: Principal, input: CreateCartDto): Promise<CartDto> {
    return CartDto.from(await this.defaults.create(principal, input));
  }

  /** One page of the caller's carts, oldest first; 400 when the caller has none. */
  async list(principal: Principal, query: PageQueryDto): Promise<Page<CartDto>> {
    const [carts, total] = await this.carts.page(
      this.access.cartScope(principal),
      query.offset,
      query.per_page,
    );
    if (total === 0) {
      throw ApiError.badRequest('Carts not found', [cartNotFound('Carts not found')]);
    }
    return new Page(
      carts.map((cart) => CartDto.from(cart)),
      query.page,
      query.per_page,
      total,
    );
  }

  /** The caller's default cart; 400 when there is none the caller may see. */
  async getDefault(principal: Principal): Promise<CartDto> {
    const cart = await this.carts.findDefaultIn(this.access.cartScope(principal));
    if (!cart) {
      throw ApiError.badRequest('Cart was not found', [cartNotFound('Cart was not found')]);
    }
    return CartDto.from(cart);
  }

  /** A visible cart with its lines (oldest first) and totals. */
  async get(principal: Principal, cartId: string): Promise<CartDetailDto> {
    return this.detail(await this.defaults.getVisible(principal, cartId));
  }

  /** Removes one line of a visible cart (404 for a line not in it); answers the cart left. */
  async removeLine(principal: Principal, cartId: string, lineId: number): Promise<CartDetailDto> {
    const cart = await this.defaults.getVisible(principal, cartId);
    if (!(await this.carts.deleteLine(cart.id, lineId))) {
      throw ApiError.notFound('Cart line not found', [
        cartNotFound('Cart line not found', 'line_id'),
      ]);
    }
    return this.detail(cart);
  }

  private async detail(cart: CartEntity): Promise<CartDetailDto> {
    return CartDetailDto.withLines(cart, await this.carts.linesOf(cart.id));
  }
}
