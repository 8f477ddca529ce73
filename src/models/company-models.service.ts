import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import type { Principal } from '../principal/principal.js';
import { CompanyModelDto, type CompanyModelsQueryDto } from './dto/company-model.dto.js';
import { ModelRepository } from './model.repository.js';
import { CompiledModels } from '../engine-runtime/compiled-models.service.js';

/** The models a company may configure: those of the suppliers linked to it. */
@Injectable()
export class CompanyModelsService {
  constructor(
    private readonly models: ModelRepository,
    private readonly compiled: CompiledModels,
    private readonly access: AccessService,
  ) {}

  async list(
    principal: Principal,
    companyId: number,
    query: CompanyModelsQueryDto,
  ): Promise<Page<CompanyModelDto>> {
    await this.access.requireCompany(principal, companyId);
    const [rows, total] = await this.models.pageForCompany(companyId, query.offset, query.per_page);
    // Every model described (in the worker that holds its version compiled) before the
    // answer begins: a failure is answered as a problem, never a cut answer.
    const items: CompanyModelDto[] = [];
    for (const row of rows) {
      const description = await this.compiled.describe(
        { modelId: row.id, versionNumber: row.versionNumber },
        companyId,
        query.language_code,
      );
      items.push(CompanyModelDto.describe(row, description));
    }
    return new Page(items, query.page, query.per_page, total);
  }
}
