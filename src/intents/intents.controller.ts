import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { CreateIntentDto } from './dto/create-intent.dto.js';
import { IntentDto } from './dto/intent.dto.js';
import { IntentsService } from './intents.service.js';

@ApiTags('intents')
@Controller('v1/intents')
export class IntentsController {
  constructor(private readonly intents: IntentsService) {}

  @Post()
  @Auth('jwt')
  @ResponseMessage('Intent token issued')
  @ApiOperation({
    summary: 'Issue an intent token for one company',
    description:
      'The token acts as you, restricted to that company and to /v1/carts and /v1/companies.',
  })
  @ApiEnvelope(IntentDto, { status: 201 })
  @ApiErrors(400, 401, 404)
  issue(
    @Body() body: CreateIntentDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<IntentDto> {
    return this.intents.issue(principal, body.company_id, body.expires_in);
  }

  @Delete(':id')
  @HttpCode(200)
  @Auth('jwt')
  @ResponseMessage('Intent token revoked')
  @ApiOperation({ summary: 'Revoke one of your intent tokens before it expires' })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The token id (jti)' })
  @ApiEnvelope(null)
  @ApiErrors(401, 404)
  async revoke(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<null> {
    await this.intents.revoke(principal, id);
    return null;
  }
}
