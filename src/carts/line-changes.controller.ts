import { Body, Controller, Headers, Param, Put, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { JsonText } from '../common/http/json-text.js';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { IdParam } from '../common/http/id-param.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { AddedCartLineDto } from './dto/cart-line-result.dto.js';
import { CompactAddedCartLineDto } from './dto/compact-line.dto.js';
import { ApiLineView, LineViewQuery } from './dto/line-view-query.js';
import { ReconfigureLineDto } from './dto/reconfigure-line.dto.js';
import type { LineView } from './compact-line.js';
import { LineChangesService } from './line-changes.service.js';

@ApiTags('carts')
@Controller('v1/carts')
export class LineChangesController {
  constructor(private readonly changes: LineChangesService) {}

  @Put(':cart_id/lines/:line_id')
  @Auth('jwt', 'intent')
  @ResponseMessage('Cart line reconfigured')
  @ApiOperation({
    summary: 'Reconfigure a line in place: new answers, on its own model version or another',
    description:
      'Evaluates the answers on the version the line was configured with and replaces the ' +
      'line (same id, same place in the cart), as POST /v1/carts would store it. With ' +
      '`version_number` (a number or `latest`) the answers (or, without `questions`, the ' +
      'stored ones) are carried over to that version by the nearest valid configuration, ' +
      'and the line lists the changes in `resolution`. Refused ' +
      'like POST /v1/carts, storing nothing: 401 with every problem of an invalid ' +
      'configuration, 403 when the caller may no longer configure the model for the ' +
      "line's company, 409 `model_retired`; 401 `currency_mismatch` when the version prices " +
      "in another currency than the cart's other lines. The answer's ETag (also each line's `etag`) " +
      'goes into `If-Match`: 409 `stale_line` when the line changed meanwhile.',
  })
  @ApiParam({ name: 'cart_id', format: 'uuid' })
  @ApiParam({ name: 'line_id', type: Number })
  @ApiHeader({ name: 'If-Match', required: false, description: 'The line\'s ETag, e.g. "1"' })
  @ApiLineView()
  @ApiEnvelope({ full: AddedCartLineDto, compact: CompactAddedCartLineDto })
  @ApiErrors(400, 401, 403, 404, 409)
  async reconfigure(
    @CurrentPrincipal() principal: Principal,
    @Param('cart_id') cartId: string,
    @IdParam('line_id') lineId: number,
    @Body() body: ReconfigureLineDto,
    @Headers('if-match') ifMatch: string | undefined,
    @LineViewQuery() view: LineView,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JsonText> {
    const replaced = await this.changes.reconfigure(principal, cartId, lineId, body, ifMatch, view);
    res.setHeader('ETag', replaced.etag);
    return replaced.line;
  }
}
