import { Injectable } from '@nestjs/common';
import type { Principal } from '../../principal/principal.js';
import { CompiledModels } from '../../engine-runtime/compiled-models.service.js';
import { ModelVersionsService } from '../../models/versions/model-versions.service.js';
import { CartSummaryRepository, type StoredAnswersRow } from '../cart-summary.repository.js';
import type { CompanyImpactDto, ImpactQueryDto, VersionImpactDto } from '../dto/impact.dto.js';

/**
 * Lines checked per worker task: a task is one turn in the model's queue, so other work
 * gets in between batches, and its deadline is one evaluation's per line.
 */
const CHECK_BATCH = 25;

/**
 * The impact of a model version on the stored cart lines, for the supplier: per buying
 * company, how many lines on other versions the version would refuse and with which
 * problem codes. Counts only: no answer, line or buyer's user leaves this service.
 *
 * Bounded: one request reads at most `limit` lines of the model (after the line id
 * `after`) and checks them in the version's worker in batches, so a model with many
 * stored lines is counted in slices (`complete`, `next_after`) that the caller adds up.
 */
@Injectable()
export class ImpactService {
  constructor(
    private readonly versions: ModelVersionsService,
    private readonly summaries: CartSummaryRepository,
    private readonly compiled: CompiledModels,
  ) {}

  async impact(
    principal: Principal,
    modelId: number,
    versionNumber: number,
    query: Pick<ImpactQueryDto, 'after' | 'limit'>,
  ): Promise<VersionImpactDto> {
    const model = await this.versions.writable(principal, modelId);
    await this.versions.requireVersion(model.id, versionNumber);
    // One more than the limit: whether anything is left after this slice.
    const read = await this.summaries.linesOfModel(model.id, query.after, query.limit + 1);
    const slice = read.slice(0, query.limit);
    const complete = read.length <= query.limit;
    const checked = slice.filter((row) => row.versionNumber !== versionNumber);
    const companies = new Map<number, CompanyImpactDto>();
    const tenant = `user:${principal.userId}`;
    for (let start = 0; start < checked.length; start += CHECK_BATCH) {
      const batch = checked.slice(start, start + CHECK_BATCH);
      const verdicts = await this.compiled.verdicts(
        { modelId: model.id, versionNumber },
        tenant,
        batch.map(({ answers, languageCode }) => ({ answers, languageCode })),
      );
      batch.forEach((row, i) => count(companies, row, verdicts[i].valid, verdicts[i].codes));
    }
    const list = [...companies.values()].sort((a, b) => a.company_id - b.company_id);
    return {
      model_id: model.id,
      version_number: versionNumber,
      examined: slice.length,
      lines: checked.length,
      invalid: list.reduce((sum, c) => sum + c.invalid, 0),
      companies: list,
      complete,
      next_after: complete || slice.length === 0 ? null : slice[slice.length - 1].id,
    };
  }
}

/** One checked line into its company's counts: each problem code once per line. */
function count(
  companies: Map<number, CompanyImpactDto>,
  row: StoredAnswersRow,
  valid: boolean,
  codes: string[],
): void {
  const entry = companies.get(row.companyId) ?? {
    company_id: row.companyId,
    lines: 0,
    invalid: 0,
    problems: {},
  };
  companies.set(row.companyId, entry);
  entry.lines += 1;
  if (valid) return;
  entry.invalid += 1;
  for (const code of codes) entry.problems[code] = (entry.problems[code] ?? 0) + 1;
}
