import { Injectable } from '@nestjs/common';
import type { Principal } from '../../principal/principal.js';
import { ModelVersionsService } from '../../models/versions/model-versions.service.js';
import { CartSummaryRepository } from '../cart-summary.repository.js';
import { CartLinesService } from '../cart-lines.service.js';
import type { CompanyImpactDto, VersionImpactDto } from '../dto/impact.dto.js';

/** Lines read per query while the impact is counted. */
const BATCH = 200;

/**
 * The impact of a model version on the stored cart lines, for the supplier: per buying
 * company, how many lines on other versions the version would refuse and with which
 * problem codes. Counts only: no answer, line or buyer's user leaves this service.
 */
@Injectable()
export class ImpactService {
  constructor(
    private readonly versions: ModelVersionsService,
    private readonly summaries: CartSummaryRepository,
    private readonly lines: CartLinesService,
  ) {}

  async impact(
    principal: Principal,
    modelId: number,
    versionNumber: number,
  ): Promise<VersionImpactDto> {
    const model = await this.versions.writable(principal, modelId);
    await this.versions.requireVersion(model.id, versionNumber);
    const companies = new Map<number, CompanyImpactDto>();
    let afterId = 0;
    for (;;) {
      const batch = await this.summaries.linesOfModel(model.id, afterId, BATCH);
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1].id;
      for (const row of batch) {
        if (row.versionNumber === versionNumber) continue;
        const entry = companies.get(row.companyId) ?? {
          company_id: row.companyId,
          lines: 0,
          invalid: 0,
          problems: {},
        };
        companies.set(row.companyId, entry);
        entry.lines += 1;
        const evaluation = await this.lines.evaluateStored(row, versionNumber);
        if (evaluation.valid) continue;
        entry.invalid += 1;
        // Each code once per line: "how many lines fail with it".
        for (const code of new Set(evaluation.errors.map((p) => p.code))) {
          entry.problems[code] = (entry.problems[code] ?? 0) + 1;
        }
      }
    }
    const list = [...companies.values()].sort((a, b) => a.company_id - b.company_id);
    return {
      model_id: model.id,
      version_number: versionNumber,
      lines: list.reduce((sum, c) => sum + c.lines, 0),
      invalid: list.reduce((sum, c) => sum + c.invalid, 0),
      companies: list,
    };
  }
}
