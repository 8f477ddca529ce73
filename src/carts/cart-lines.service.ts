import { HttpStatus, Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../principal/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import type { CartLine, CompactCartLine, LineView } from '../engine/index.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { EvaluatedLine } from '../models/compiled-models.service.js';
import { ModelsService } from '../models/models.service.js';
import type { JsonText } from '../common/http/json-text.js';
import type { CartLineEntity } from './cart-line.entity.js';
import { CartRepository, type NewCartLineRow } from './cart.repository.js';
import { AppConfig } from '../config/app-config.js';
import { DefaultCarts } from './default-carts.service.js';
import type { AddCartLineDto, ConfigurationDto } from './dto/add-cart-line.dto.js';
import { lineInView } from './compact-line.js';
import { lineWith } from './line-answer.js';

/** The `line` column of a compactly stored row: nothing the model version can recompute. */
const COMPACT_LINE: Record<string, unknown> = {};

const cartFull = (max: number) =>
  ApiError.conflict('The cart is full', [
    { code: 'cart_full', message: `A cart holds at most ${max} lines (CART_MAX_LINES)` },
  ]);

/** What a configuration was evaluated against and what came out, in the asked view. */
interface Configured {
  modelId: number;
  versionNumber: number;
  evaluation: EvaluatedLine;
}

/**
 * Turns a configuration into a cart line: access checks, evaluation of the model's current
 * version in the worker that holds it compiled (ModelsService.evaluateVersion), and storage.
 */
@Injectable()
export class CartLinesService {
  constructor(
    private readonly carts: CartRepository,
    private readonly defaults: DefaultCarts,
    private readonly models: ModelsService,
    private readonly access: AccessService,
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  /** POST /v1/carts: an invalid configuration answers 401 (seed contract) and stores nothing. */
  async add(
    principal: Principal,
    input: AddCartLineDto,
    view: LineView = 'full',
  ): Promise<JsonText> {
    const { modelId, versionNumber, evaluation } = await this.configure(principal, input, view);
    if (!evaluation.valid) {
      throw new ApiError(
        HttpStatus.UNAUTHORIZED,
        'The configuration is not valid',
        evaluation.errors,
      );
    }
    const cart = await this.defaults.resolveTargetCart(principal, input.cart_id);
    const pricing = { total: evaluation.total, currency: evaluation.currency };
    // Check and insert under the cart's lock: two lines in different currencies racing
    // into one cart must not both get in.
    const row: NewCartLineRow = {
      cartId: cart.id,
      modelId,
      versionNumber,
      companyId: input.company_id,
      languageCode: input.language_code ?? null,
      answers: input.questions,
      // Compact: the line is rebuilt from the compiled version on read (see lineView).
      line: COMPACT_LINE,
      total: pricing.total,
      currency: pricing.currency,
    };
    // Check and insert under the cart's lock: two lines in different currencies racing
    // into one cart must not both get in.
    const stored = await this.carts.withCartLocked(cart.id, async (locked) => {
      // The usual case: the company may use the cart (no query), and one statement
      // inserts the line when the cart's currency and line count admit it.
      if (this.access.cartCompanyProblems(cart, input.company_id).length === 0) {
        const admitted = await locked.insertLineIfAdmitted(row, this.config.cartMaxLines);
        if (admitted) return admitted;
      }
      // Otherwise the reads that say why (and the insert, should nothing be wrong).
      const mismatch = await this.defaults.lineProblems(
        cart,
        input.company_id,
        pricing.currency,
        locked,
      );
      if (mismatch.length > 0) {
        const companyMismatch = mismatch.some((p) => p.code === 'cart_company_mismatch');
        const status = companyMismatch ? HttpStatus.FORBIDDEN : HttpStatus.UNAUTHORIZED;
        throw new ApiError(status, 'The line cannot go into this cart', mismatch);
      }
      // Counted under the cart's lock, so parallel adds cannot pass the limit together.
      if ((await locked.lineCount(cart.id)) >= this.config.cartMaxLines)
        throw cartFull(this.config.cartMaxLines);
      return locked.insertLine(row);
    });
    // The line's bytes as the worker wrote them, with the members of the stored row.
    return lineWith(evaluation.line, {
      id: stored.id,
      cart_id: cart.id,
      model_id: modelId,
      company_id: input.company_id,
      warnings: evaluation.warnings,
    });
  }

  /** POST /v1/carts/preview: the same evaluation, nothing stored. */
  async preview(
    principal: Principal,
    input: ConfigurationDto,
    view: LineView = 'full',
  ): Promise<JsonText> {
    const { evaluation } = await this.configure(principal, input, view);
    return lineWith(evaluation.line, {
      id: null,
      valid: evaluation.valid,
      errors: evaluation.errors,
      warnings: evaluation.warnings,
    });
  }

  /**
   * The evaluated line of a stored row. Rows store what the model version cannot
   * recompute (answers, language, version, total and currency); the line itself is
   * evaluated again from the compiled version (cached), which gives the very line that
   * was stored, since versions are immutable and evaluation is deterministic. Rows
   * stored whole before this (a non-empty `line`) are served as stored (trimmed to the
   * compact view when asked).
   */
  async lineView(
    row: CartLineEntity,
    view: LineView = 'full',
  ): Promise<CartLine | CompactCartLine> {
    if (Object.keys(row.line).length > 0) return lineInView(row.line as unknown as CartLine, view);
    // By the row's ids: a version its worker holds costs no query.
    const evaluation = await this.models.evaluateVersion(
      row.modelId,
      row.versionNumber,
      row.companyId,
      { questions: row.answers, languageCode: row.languageCode, view },
    );
    return JSON.parse(Buffer.from(evaluation.line).toString('utf8')) as CartLine;
  }

  /** Evaluates against the model's compiled current version, once AccessService allows it. */
  private async configure(
    principal: Principal,
    input: ConfigurationDto,
    view: LineView,
  ): Promise<Configured> {
    // Company, model and link in one query; the compiled version from the cache.
    const model = await this.access.requireConfigurable(
      principal,
      input.company_id,
      input.model_id,
    );
    const started = performance.now();
    const evaluation = await this.models.evaluateVersion(
      model.id,
      model.versionNumber,
      input.company_id,
      { questions: input.questions, languageCode: input.language_code ?? null, view },
    );
    this.metrics.observeEvaluation(
      performance.now() - started,
      evaluation.valid ? 'valid' : 'invalid',
    );
    return { modelId: model.id, versionNumber: model.versionNumber, evaluation };
  }
}
