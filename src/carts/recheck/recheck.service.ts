import { Injectable } from '@nestjs/common';
import type { Principal } from '../../principal/principal.js';
import { ApiError } from '../../common/errors/api-error.js';
import { AppConfig } from '../../config/app-config.js';
import { ModelVersionsService } from '../../models/versions/model-versions.service.js';
import type { CartLineEntity } from '../cart-line.entity.js';
import { CartRepository } from '../cart.repository.js';
import { CartLinesService, currencyMismatch } from '../cart-lines.service.js';
import { DefaultCarts } from '../default-carts.service.js';
import { LineChangesService } from '../line-changes.service.js';
import { LineConfigurator } from '../line-configurator.service.js';
import { StoredLines } from '../stored-lines.service.js';
import type {
  CartRecheckDto,
  CartRecheckQueryDto,
  LineRecheckDto,
  RecheckBodyDto,
  RecheckQueryDto,
} from '../dto/recheck.dto.js';
import { compareLines } from './compare-lines.js';
import { lineEtag } from '../line-etag.js';

/**
 * A stored line's answers on another version of its model (docs/adr/0051: lines are
 * snapshots; re-checking and moving are explicit): what would change, and, asked to,
 * the move itself through CartLinesService.replace (the path of POST /v1/carts).
 */
@Injectable()
export class RecheckService {
  constructor(
    private readonly changes: LineChangesService,
    private readonly lines: CartLinesService,
    private readonly storedLines: StoredLines,
    private readonly configurator: LineConfigurator,
    private readonly versions: ModelVersionsService,
    private readonly carts: CartRepository,
    private readonly defaults: DefaultCarts,
    private readonly config: AppConfig,
  ) {}

  /** POST /v1/carts/{cart_id}/lines/{line_id}/recheck. */
  async recheckLine(
    principal: Principal,
    cartId: string,
    lineId: number,
    query: RecheckQueryDto,
    body: RecheckBodyDto,
    ifMatch: string | undefined,
  ): Promise<LineRecheckDto> {
    const line = await this.changes.visibleLine(principal, cartId, lineId);
    const target = await this.targetVersion(line.modelId, query.version);
    const result = await this.check(principal, line, target);
    if (body.apply !== true) return result;
    if (!result.movable) {
      throw ApiError.conflict(`The line cannot move to version ${target}`, result.errors);
    }
    return this.move(principal, line, result, ifMatch);
  }

  /**
   * POST /v1/carts/{cart_id}/recheck: every line whose model has moved on, against its
   * model's current version (`version=latest`), or the lines of `model_id` against its
   * version `version`, as the line recheck takes it; `apply` moves those valid there and
   * leaves the others.
   */
  async recheckCart(
    principal: Principal,
    cartId: string,
    query: CartRecheckQueryDto,
    body: RecheckBodyDto,
  ): Promise<CartRecheckDto> {
    const cart = await this.defaults.getVisible(principal, cartId);
    const [all] = await this.carts.pageOfLines(cart.id, 0, this.config.cartMaxLines);
    const rows =
      query.model_id === undefined ? all : all.filter((row) => row.modelId === query.model_id);
    const numbered = query.version !== undefined && query.version !== 'latest';
    const latest = numbered
      ? new Map<number, number>()
      : await this.versions.currentVersions(rows.map((row) => row.modelId));
    const results: LineRecheckDto[] = [];
    let current = 0;
    // One after the other: each is an evaluation (in a worker), a cart holds at most 500.
    for (const line of rows) {
      const target = numbered ? Number(query.version) : (latest.get(line.modelId) ?? 0);
      // Latest: a line past its model's current version cannot be; a named version
      // may be an older one, which the line recheck allows too.
      if (numbered ? target === line.versionNumber : target <= line.versionNumber) {
        current += 1;
        continue;
      }
      const result = await this.check(principal, line, target);
      results.push(
        body.apply === true && result.movable
          ? await this.move(principal, line, result, undefined)
          : result,
      );
    }
    return { cart_id: cart.id, lines: results, current };
  }

  /**
   * The line's answers on `target`, compared with the line as stored, and the nearest
   * valid configuration there (what `apply` stores: `changes`, `movable`); nothing stored.
   */
  private async check(
    principal: Principal,
    line: CartLineEntity,
    target: number,
  ): Promise<LineRecheckDto> {
    const before = await this.storedLines.storedCartLine(line);
    const input = {
      model_id: line.modelId,
      company_id: line.companyId,
      questions: line.answers,
      language_code: line.languageCode,
    };
    // The access check of POST /v1/carts: the caller must still be allowed the model.
    const evaluation = await this.configurator.configureParsed(principal, input, target);
    // Valid as they are: the nearest valid configuration is the answers themselves.
    const moved = evaluation.valid
      ? evaluation
      : await this.configurator.configureParsed(principal, input, target, { move: true });
    const price = moved.line.pricing;
    // A cart holds one currency: the add's rule, for the line as apply would store it.
    const other = moved.valid
      ? await this.carts.otherCurrency(line.cartId, price.currency, line.id)
      : null;
    const refused = other === null ? [] : [currencyMismatch(other, price.currency)];
    return {
      line_id: line.id,
      from_version: line.versionNumber,
      to_version: target,
      valid: evaluation.valid,
      price_before: { total: line.total, currency: line.currency },
      // An invalid line's total omits what its open or refused answers would cost: no price.
      ...(moved.valid
        ? { price_after: { total: price.total, currency: price.currency } }
        : {
            price_after: null,
            price_after_reason: `no valid configuration of these answers on version ${target}`,
          }),
      ...compareLines(line.answers, before, evaluation),
      changes: moved.line.resolution?.changes ?? [],
      movable: moved.valid && refused.length === 0,
      errors: [...evaluation.errors, ...refused],
      applied: false,
      etag: null,
    };
  }

  /** Moves the line as `check` found it may be, by the same resolution (the PUT's). */
  private async move(
    principal: Principal,
    line: CartLineEntity,
    result: LineRecheckDto,
    ifMatch: string | undefined,
  ): Promise<LineRecheckDto> {
    const answers = { questions: line.answers, language_code: line.languageCode };
    // Conditional on the line as read, If-Match or not: the move carries the answers it
    // checked, and must not undo a reconfiguration that landed meanwhile.
    const replaced = await this.lines.replace(principal, line, answers, {
      versionNumber: result.to_version,
      move: true,
      ifMatch: ifMatch ?? lineEtag(line.revision),
      view: 'compact',
    });
    return { ...result, applied: true, etag: replaced.etag };
  }

  private async targetVersion(modelId: number, version: string | undefined): Promise<number> {
    if (version !== undefined && version !== 'latest') return Number(version);
    const current = (await this.versions.currentVersions([modelId])).get(modelId);
    if (current === undefined) throw ApiError.notFound('No model found');
    return current;
  }
}
