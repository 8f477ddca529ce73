import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../principal/auth.decorator.js';
import { CurrentPrincipal } from '../../principal/current-principal.decorator.js';
import type { Principal } from '../../principal/principal.js';
import { IdParam } from '../../common/http/id-param.js';
import { ResponseMessage } from '../../common/envelope/response-message.decorator.js';
import { ApiEnvelope, ApiErrors } from '../../common/swagger/api-envelope.decorator.js';
import { ImpactQueryDto, VersionImpactDto } from '../dto/impact.dto.js';
import {
  CartRecheckDto,
  CartRecheckQueryDto,
  LineRecheckDto,
  RecheckBodyDto,
  RecheckQueryDto,
} from '../dto/recheck.dto.js';
import { ImpactService } from './impact.service.js';
import { RecheckService } from './recheck.service.js';

@ApiTags('carts')
@Controller('v1/carts')
export class RecheckController {
  constructor(private readonly rechecks: RecheckService) {}

  @Post(':cart_id/lines/:line_id/recheck')
  @HttpCode(200)
  @Auth('jwt', 'intent')
  @ResponseMessage('Cart line rechecked')
  @ApiOperation({
    summary: "A line's answers on another version of its model: what would change",
    description:
      'Evaluates the stored answers on `version` (default `latest`) without storing ' +
      'anything: price before and after, the answers no longer valid (with reason and ' +
      'conflict set), questions newly required, defaults and triggers that would now fill ' +
      'a question; `changes`: the nearest valid configuration there (what `apply` stores), ' +
      'and `movable`. `apply: true` moves the line there by those changes, as PUT with ' +
      '`version_number` does (a new ETag; `If-Match` as on PUT), else 409 with the problems ' +
      '(`currency_mismatch` when the version prices in another currency than the cart’s ' +
      'other lines). 403/409 `model_retired` like POST /v1/carts.',
  })
  @ApiParam({ name: 'cart_id', format: 'uuid' })
  @ApiParam({ name: 'line_id', type: Number })
  @ApiHeader({ name: 'If-Match', required: false, description: "With apply: the line's ETag" })
  @ApiEnvelope(LineRecheckDto)
  @ApiErrors(400, 401, 403, 404, 409)
  recheckLine(
    @CurrentPrincipal() principal: Principal,
    @Param('cart_id') cartId: string,
    @IdParam('line_id') lineId: number,
    @Query() query: RecheckQueryDto,
    @Body() body: RecheckBodyDto,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<LineRecheckDto> {
    return this.rechecks.recheckLine(principal, cartId, lineId, query, body, ifMatch);
  }

  @Post(':cart_id/recheck')
  @HttpCode(200)
  @Auth('jwt', 'intent')
  @ResponseMessage('Cart rechecked')
  @ApiOperation({
    summary: "Every line whose model has moved on, against the model's current version",
    description:
      'The line recheck for each such line; `apply: true` moves every movable line there ' +
      'and leaves the others as they are (`applied: false`, with their problems). ' +
      '`version=N` with `model_id`: the lines of that model, against its version N (400 ' +
      'without `model_id`; 404 when the model has no version N).',
  })
  @ApiParam({ name: 'cart_id', format: 'uuid' })
  @ApiEnvelope(CartRecheckDto)
  @ApiErrors(400, 401, 403, 404, 409)
  recheckCart(
    @CurrentPrincipal() principal: Principal,
    @Param('cart_id') cartId: string,
    @Query() query: CartRecheckQueryDto,
    @Body() body: RecheckBodyDto,
  ): Promise<CartRecheckDto> {
    return this.rechecks.recheckCart(principal, cartId, query, body);
  }
}

@ApiTags('models')
@Controller('v1/models')
export class ModelImpactController {
  constructor(private readonly impacts: ImpactService) {}

  @Get(':id/versions/:version/impact')
  @Auth('jwt', 'api')
  @ResponseMessage('Version impact counted')
  @ApiOperation({
    summary: 'How many stored cart lines a version would refuse, per company (supplier members)',
    description:
      'Checks the stored lines of the model on other versions against this one, in slices: ' +
      'one request reads at most `limit` lines (default 200, at most 1,000) after the line ' +
      'id `after`, and answers their counts with `examined`, `complete` and `next_after` ' +
      '(the `after` of the next slice; add the slices up). Counts per buying company and ' +
      'per problem code only: never a line, an answer or a user. ' +
      "403 for the model's readers, 404 for anyone else.",
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiParam({ name: 'version', type: Number })
  @ApiEnvelope(VersionImpactDto)
  @ApiErrors(400, 401, 403, 404)
  impact(
    @IdParam() id: number,
    @IdParam('version') version: number,
    @Query() query: ImpactQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VersionImpactDto> {
    return this.impacts.impact(principal, id, version, query);
  }
}
