import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import { describeModel } from '../engine/index.js';
import type { Principal } from '../principal/principal.js';
import { companyAssetUrl } from './asset-urls.js';
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
  ): Promise<Page<CompanyModelDto>> {
    await this.access.requireCompany(principal, companyId);
    const [rows, total] = await this.models.pageForCompany(companyId, query.offset, query.per_page);
    const items: CompanyModelDto[] = [];
    for (const row of rows) {
      // Compiled once per version (cache); describing is a walk over the compiled model.
      const { compiled, versionNumber } = await this.modelsService.compiledFor(row);
      const assetUrl = (path: string) => companyAssetUrl(companyId, row.id, versionNumber, path);
      const description = describeModel(compiled, query.language_code, { assetUrl });
      items.push(CompanyModelDto.describe(row, description));
    }
    return new Page(items, query.page, query.per_page, total);
  }
}
