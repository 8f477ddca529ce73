import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { IdParam } from '../common/http/id-param.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import type { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { SeedContract } from '../common/seed-contract.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { CartsService, type CartPage } from './carts.service.js';
import { CartDetailDto, CartLineDto } from './dto/cart-detail.dto.js';
import { CompactCartLineDto } from './dto/compact-line.dto.js';
import { CartLinesQueryDto } from './dto/cart-lines-query.dto.js';
import { CartDto } from './dto/cart.dto.js';
import { CreateCartDto } from './dto/create-cart.dto.js';
import { UpdateCartDto } from './dto/update-cart.dto.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';

@ApiTags('carts')
@Controller('v1/carts')
export class CartsController {
  constructor(private readonly carts: CartsService) {}

  @Post('new')
  @Auth('jwt', 'intent')
  @Idempotent()
  @SeedContract({ invalidBody: 401 })
  @ResponseMessage('Cart created')
  @ApiOperation({
    summary: 'Create a cart',
    description:
      "The caller's first cart becomes their default; `default: true` moves the default to the new cart. " +
      'An Idempotency-Key replay of a cart the caller may no longer see (deleted, or another company) is 404.',
  })
  @ApiEnvelope(CartDto, { status: 201 })
  @ApiErrors(401, 403, 404)
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateCartDto): Promise<CartDto> {
    return this.carts.create(principal, body);
  }

  @Get()
  @Auth('jwt', 'intent')
  @SeedContract()
  @ResponseMessage('Carts found')
  @ApiOperation({ summary: "List the caller's carts" })
  @ApiEnvelope(CartDto, { paginated: true })
  @ApiErrors(400, 403)
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PageQueryDto,
  ): Promise<Page<CartDto>> {
    return this.carts.list(principal, query);
  }

  @Get('default')
  @Auth('jwt', 'intent')
  @SeedContract()
  @ResponseMessage('Cart found')
  @ApiOperation({ summary: "Get the caller's default cart" })
  @ApiEnvelope(CartDto)
  @ApiErrors(400, 403)
  getDefault(@CurrentPrincipal() principal: Principal): Promise<CartDto> {
    return this.carts.getDefault(principal);
  }

  @Get(':cart_id')
  @Auth('jwt', 'intent')
  @ResponseMessage('Cart found')
  @ApiOperation({
    summary: 'A cart with one page of its lines (page, per_page) and the total of all of them',
  })
  @ApiParam({ name: 'cart_id', format: 'uuid' })
  @ApiExtraModels(CartLineDto, CompactCartLineDto)
  @ApiEnvelope(CartDetailDto, { pagedObject: true })
  @ApiErrors(400, 401, 404, 422)
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('cart_id') cartId: string,
    @Query() query: CartLinesQueryDto,
  ): Promise<CartPage> {
    return this.carts.get(principal, cartId, query);
  }

  @Patch(':cart_id')
  @Auth('jwt', 'intent')
  @ResponseMessage('Cart updated')
  @ApiOperation({
    summary: 'Rename a cart, or make it (or stop it being) the default',
    description:
      '`default: true` moves the default here; `default: false` on the default cart leaves ' +
      'the caller without one until one is chosen or POST /v1/carts creates one.',
  })
  @ApiParam({ name: 'cart_id', format: 'uuid' })
  @ApiEnvelope(CartDto)
  @ApiErrors(400, 401, 404, 409)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('cart_id') cartId: string,
    @Body() body: UpdateCartDto,
  ): Promise<CartDto> {
    return this.carts.update(principal, cartId, body);
  }

  @Delete(':cart_id')
  @Auth('jwt', 'intent')
  @ResponseMessage('Cart deleted')
  @ApiOperation({
    summary: 'Delete a cart and its lines; answers the cart as it was',
    description:
      'After deleting the default cart the caller has no default until one is chosen ' +
      '(PATCH `default: true`, POST /v1/carts/new `default: true`) or POST /v1/carts ' +
      'creates one ("default") as on first use; GET /v1/carts/default answers 400 meanwhile.',
  })
  @ApiParam({ name: 'cart_id', format: 'uuid' })
  @ApiEnvelope(CartDto)
  @ApiErrors(401, 404)
  remove(
    @CurrentPrincipal() principal: Principal,
    @Param('cart_id') cartId: string,
  ): Promise<CartDto> {
    return this.carts.remove(principal, cartId);
  }

  @Delete(':cart_id/lines/:line_id')
  @Auth('jwt', 'intent')
  @ResponseMessage('Cart line removed')
  @ApiOperation({ summary: 'Remove a line from a cart; answers the updated cart' })
  @ApiParam({ name: 'cart_id', format: 'uuid' })
  @ApiParam({ name: 'line_id', type: Number })
  @ApiEnvelope(CartDetailDto, { pagedObject: true })
  @ApiErrors(401, 404)
  removeLine(
    @CurrentPrincipal() principal: Principal,
    @Param('cart_id') cartId: string,
    @IdParam('line_id') lineId: number,
  ): Promise<CartPage> {
    return this.carts.removeLine(principal, cartId, lineId);
  }
}
