import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import type { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { CompaniesService } from './companies.service.js';
import { AddMemberDto, MemberDto } from '../memberships/dto/member.dto.js';
import { IdParam } from '../common/http/id-param.js';

/** Company memberships: managed by admins and by the company's own members (JWT only). */
@ApiTags('companies')
@Controller('v1/companies/:id/members')
export class CompanyMembersController {
  constructor(private readonly companies: CompaniesService) {}

  @Post()
  @Auth('jwt', { companyMember: 'id' })
  @ResponseMessage('Member added')
  @ApiOperation({
    summary: 'Add a user to a company (admins and members of the company)',
    description: 'A company the caller may not see answers 404; an unknown user_id 404.',
  })
  @ApiEnvelope(MemberDto, { status: 201 })
  @ApiErrors(400, 401, 404, 409)
  add(
    @IdParam() id: number,
    @Body() body: AddMemberDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MemberDto> {
    return this.companies.addMember(principal, id, body.user_id);
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
    return this.companies.listMembers(principal, id, query);
  }
}
