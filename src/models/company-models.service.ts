import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import { DeferredJson } from '../common/event-loop/deferred-json.js';
import type { Principal } from '../principal/principal.js';
import { CompanyModelDto, type CompanyModelsQueryDto } from './dto/company-model.dto.js';
import { ModelRepository } from './model.repository.js';
import { ModelsService } from './models.service.js';

/** The models a company may configure: those of the suppliers linked to it. */
@Injectable()
export class CompanyModelsService {
  constructor(
    private readonly models: ModelRepository,
    private readonly modelsService: ModelsService,
    private readonly access: AccessService,
  ) {}

  async list(
    principal: Principal,
    companyId: number,
    query: CompanyModelsQueryDto,
  ): Promise<Page<DeferredJson<CompanyModelDto>>> {
    await this.access.requireCompany(principal, companyId);
    const [rows, total] = await this.models.pageForCompany(companyId, query.offset, query.per_page);
    // Each model described when the answer is written, one at a time: a page of 200
    // descriptions of 5,000-question models is ~290 MB, never held all together.
    const items = rows.map(
      (row) =>
        new DeferredJson(async () => {
          // Described in the worker that holds the version compiled.
          const description = await this.modelsService.describeVersion(
            row.id,
            row.versionNumber,
            companyId,
            query.language_code,
          );
          return CompanyModelDto.describe(row, description);
        }),
    );
    return new Page(items, query.page, query.per_page, total);
  }
}
