import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import type { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { MembershipsService } from '../memberships/memberships.service.js';
import { AddMemberDto, MemberDto } from '../memberships/dto/member.dto.js';
import { IdParam } from '../common/http/id-param.js';

/**
 * Company memberships (JWT only): admins add by id, members invite by email
 * (InvitationsController); admins remove, members leave.
 */
@ApiTags('companies')
@Controller('v1/companies/:id/members')
export class CompanyMembersController {
  constructor(private readonly memberships: MembershipsService) {}

  @Post()
  @Auth('jwt', { role: 'admin' })
  @ResponseMessage('Member added')
  @ApiOperation({
    summary: 'Add a user to a company by id (admins only; others invite by email)',
    description: 'An unknown company or user_id answers 404; an existing member 409.',
  })
  @ApiEnvelope(MemberDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409)
  add(
    @IdParam() id: number,
    @Body() body: AddMemberDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MemberDto> {
    return this.memberships.add(principal, { kind: 'company', id }, body.user_id);
  }

  @Get()
  @Auth('jwt', { companyMember: 'id' })
  @ResponseMessage('Members found')
  @ApiOperation({ summary: "List a company's members (admins and members of the company)" })
  @ApiEnvelope(MemberDto, { paginated: true })
  @ApiErrors(400, 401, 404)
  list(
    @IdParam() id: number,
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<MemberDto>> {
    return this.memberships.list(principal, { kind: 'company', id }, query);
  }

  @Delete(':user_id')
  @HttpCode(200)
  @Auth('jwt')
  @ResponseMessage('Member removed')
  @ApiOperation({ summary: 'Remove a member (admins), or leave (the member themself)' })
  @ApiParam({ name: 'user_id', description: 'The member to remove' })
  @ApiEnvelope(null)
  @ApiErrors(401, 403, 404)
  async remove(
    @IdParam() id: number,
    @IdParam('user_id') userId: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<null> {
    await this.memberships.remove(principal, { kind: 'company', id }, userId);
    return null;
  }
}
