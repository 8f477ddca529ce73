import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { IdParam } from '../common/http/id-param.js';
import { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { InvitationDto, InvitationSentDto, InviteDto } from './dto/invitation.dto.js';
import { InvitationsService } from './invitations.service.js';

@ApiTags('invitations')
@Controller('v1')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post('companies/:id/invitations')
  @HttpCode(202)
  @Auth('jwt')
  @ResponseMessage('Invitation accepted for delivery')
  @ApiOperation({
    summary: 'Invite an email into a company (admins and the company’s members)',
    description: 'Answers 202 alike whether or not an account has the email.',
  })
  @ApiParam({ name: 'id', description: 'Company id' })
  @ApiEnvelope(InvitationSentDto, { status: 202 })
  @ApiErrors(400, 401, 404)
  invite(
    @IdParam() id: number,
    @Body() body: InviteDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<InvitationSentDto> {
    return this.invitations.invite(principal, id, body.email);
  }

  @Get('invitations')
  @Auth('jwt')
  @ResponseMessage('Invitations found')
  @ApiOperation({ summary: 'The caller’s pending invitations (matched by their email)' })
  @ApiEnvelope(InvitationDto, { paginated: true })
  @ApiErrors(400, 401)
  pending(
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<InvitationDto>> {
    return this.invitations.pending(principal, query);
  }

  @Post('invitations/:id/accept')
  @HttpCode(200)
  @Auth('jwt')
  @ResponseMessage('Invitation accepted')
  @ApiOperation({ summary: 'Accept one of the caller’s invitations: join the company' })
  @ApiParam({ name: 'id', description: 'Invitation id' })
  @ApiEnvelope(InvitationDto)
  @ApiErrors(401, 404)
  accept(@IdParam() id: number, @CurrentPrincipal() principal: Principal): Promise<InvitationDto> {
    return this.invitations.accept(principal, id);
  }
}
