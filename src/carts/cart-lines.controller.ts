import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { SeedContract } from '../common/seed-contract.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { CartLinesService } from './cart-lines.service.js';
import { ADDED_REVISION, lineEtag } from './line-etag.js';
import { AddCartLineDto } from './dto/add-cart-line.dto.js';
import { PreviewConfigurationDto } from './dto/preview-configuration.dto.js';
import { AddedCartLineDto, PreviewLineDto } from './dto/cart-line-result.dto.js';
import { CompactAddedCartLineDto, CompactPreviewLineDto } from './dto/compact-line.dto.js';
import { ApiLineView, LineViewQuery } from './dto/line-view-query.js';
import type { LineView } from './compact-line.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import type { JsonText } from '../common/http/json-text.js';
import type { Referenced } from '../idempotency/replays.js';

@ApiTags('carts')
@Controller('v1/carts')
export class CartLinesController {
  constructor(private readonly cartLines: CartLinesService) {}

  @Post()
  @Auth('jwt', 'intent')
  @Idempotent()
  @SeedContract({ invalidBody: 401 })
  @ResponseMessage('Configuration added to the cart')
  @ApiOperation({
    summary: 'Add a configuration to a cart',
    description:
      'Evaluates the answers against the model’s current version and stores the line in the ' +
      'named cart (`cart_id`) or the caller’s default cart. An invalid body or configuration ' +
      'answers 401 with every problem in `errors`; nothing is stored.',
  })
  @ApiLineView()
  @ApiEnvelope({ full: AddedCartLineDto, compact: CompactAddedCartLineDto }, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409, 422)
  add(
    @CurrentPrincipal() principal: Principal,
    @Body() body: AddCartLineDto,
    @LineViewQuery() view: LineView,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Referenced<JsonText>> {
    // A new line's ETag, so that a client can PUT it without reading it first.
    res.setHeader('ETag', lineEtag(ADDED_REVISION));
    return this.cartLines.add(principal, body, view);
  }

  @Post('preview')
  @HttpCode(200)
  @Auth('jwt', 'intent')
  @ResponseMessage('Configuration evaluated')
  @ApiOperation({
    summary: 'Evaluate a configuration without saving it',
    description:
      'The line as POST /v1/carts would store it, with `valid`, `errors` and `warnings`. ' +
      '`resolve` answers the nearest valid configuration instead (the line of the changed ' +
      'answers, with `resolution: {changes, exact}`); `complete: "cheapest"` fills the ' +
      'unanswered questions with a cheapest valid completion (`source: completion`).',
  })
  @ApiLineView()
  @ApiEnvelope({ full: PreviewLineDto, compact: CompactPreviewLineDto })
  @ApiErrors(400, 401, 403, 409, 422)
  preview(
    @CurrentPrincipal() principal: Principal,
    @Body() body: PreviewConfigurationDto,
    @LineViewQuery() view: LineView,
  ): Promise<JsonText> {
    return this.cartLines.preview(principal, body, view);
  }
}
