import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Page } from '../common/envelope/envelope.js';
import { describeModel } from '../engine/index.js';
import { CompanySupplierEntity } from '../suppliers/company-supplier.entity.js';
import { companyAssetUrl } from './asset-response.js';
import { CompanyModelDto, type CompanyModelsQueryDto } from './dto/company-model.dto.js';
import { ModelEntity } from './model.entity.js';
import { ModelsService } from './models.service.js';

/** The models a company may configure: those of the suppliers linked to it. */
@Injectable()
export class CompanyModelsService {
  constructor(
    @InjectRepository(ModelEntity) private readonly models: Repository<ModelEntity>,
    private readonly modelsService: ModelsService,
  ) {}

  /** Access to the company is checked by the route (companyMember). */
  async list(companyId: number, query: CompanyModelsQueryDto): Promise<Page<CompanyModelDto>> {
    const [rows, total] = await this.models
      .createQueryBuilder('m')
      .innerJoin(
        CompanySupplierEntity,
        'link',
        'link.supplierId = m.supplierId AND link.companyId = :companyId',
        { companyId },
      )
      .orderBy('m.id', 'ASC')
      .skip(query.offset)
      .take(query.per_page)
      .getManyAndCount();
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
