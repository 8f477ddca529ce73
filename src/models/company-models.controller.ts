import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorator.js';
import { parseId } from '../common/http/id-param.js';
import { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { CompanyModelsService } from './company-models.service.js';
import { CompanyModelDto, CompanyModelsQueryDto } from './dto/company-model.dto.js';

@ApiTags('models')
@Controller('v1/companies')
export class CompanyModelsController {
  constructor(private readonly companyModels: CompanyModelsService) {}

  @Get(':id/models')
  @Auth('jwt', 'intent', { companyMember: 'id' })
  @ResponseMessage('Models found')
  @ApiOperation({
    summary: 'The models company {id} may configure, with their questions',
    description:
      'The models of the suppliers linked to the company, each with its questions, options, ' +
      'prices and constraints, labels in `language_code` (else the default language).',
  })
  @ApiParam({ name: 'id', description: 'Company id' })
  @ApiEnvelope(CompanyModelDto, { paginated: true })
  @ApiErrors(400, 401, 404)
  list(
    @Param('id') id: string,
    @Query() query: CompanyModelsQueryDto,
  ): Promise<Page<CompanyModelDto>> {
    return this.companyModels.list(parseId(id), query);
  }
}
