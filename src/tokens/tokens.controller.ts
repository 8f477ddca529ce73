import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { IdParam } from '../common/http/id-param.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import type { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { SeedContract } from '../common/seed-contract.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { ApiTokenDto, CreatedApiTokenDto } from './dto/api-token.dto.js';
import { CreateApiTokenDto } from './dto/create-api-token.dto.js';
import { TokensService } from './tokens.service.js';

/** Every /v1/tokens route takes only the JWT access token (docs/api.md, "Credentials"). */
@ApiTags('tokens')
@Controller('v1/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post()
  @Auth('jwt')
  @SeedContract()
  @ResponseMessage('API token created')
  @ApiOperation({
    summary: 'Create an API token',
    description: 'The secret is in `token` of this answer only; only its hash is stored.',
  })
  @ApiEnvelope(CreatedApiTokenDto, { status: 201 })
  @ApiErrors(400, 403, 409)
  create(
    @Body() body: CreateApiTokenDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CreatedApiTokenDto> {
    return this.tokens.create(
      principal,
      body.name,
      body.expires_at ? new Date(body.expires_at) : null,
    );
  }

  @Get()
  @Auth('jwt')
  @ResponseMessage('API tokens found')
  @ApiOperation({ summary: 'Your live API tokens (without secrets)' })
  @ApiEnvelope(ApiTokenDto, { paginated: true })
  @ApiErrors(400, 401)
  list(
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<ApiTokenDto>> {
    return this.tokens.list(principal, query);
  }

  @Delete(':id')
  @HttpCode(200)
  @Auth('jwt')
  @ResponseMessage('API token revoked')
  @ApiOperation({ summary: 'Revoke one of your API tokens; it stops working at once' })
  @ApiEnvelope(null)
  @ApiErrors(401, 404)
  async revoke(@IdParam() id: number, @CurrentPrincipal() principal: Principal): Promise<null> {
    await this.tokens.revoke(principal, id);
    return null;
  }
}
