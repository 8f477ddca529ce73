import { HttpStatus, Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../principal/principal.js';
import { ApiError, type Problem } from '../common/errors/api-error.js';
import {
  evaluateConfigurationInSlices,
  type CartLine,
  type CompactCartLine,
  type CompiledModel,
  type Evaluation,
  type EvaluationRequest,
  type LineView,
  type Slicing,
} from '../engine/index.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { AssetUrls } from '../models/asset-urls.js';
import { ModelsService } from '../models/models.service.js';
import type { CartLineEntity } from './cart-line.entity.js';
import { CartRepository } from './cart.repository.js';
import { AppConfig } from '../config/app-config.js';
import { cartNotFound, DefaultCarts } from './default-carts.service.js';
import { lineEtag, lineIfMatchAccepts, staleLine } from './line-etag.js';
import type { AddCartLineDto, ConfigurationDto } from './dto/add-cart-line.dto.js';
import type { AddedCartLineDto, PreviewLineDto } from './dto/cart-line-result.dto.js';
import type { CompactAddedCartLineDto, CompactPreviewLineDto } from './dto/compact-line.dto.js';
import { lineInView } from './compact-line.js';
import { lineRow, storedAnswer, type Configured, type LineInput } from './line-rows.js';
import { slicingOf } from '../common/event-loop/slices.js';

const lineNotFound = () =>
  ApiError.notFound('Cart line not found', [cartNotFound('Cart line not found', 'line_id')]);

const cartFull = (max: number) =>
  ApiError.conflict('The cart is full', [
    { code: 'cart_full', message: `A cart holds at most ${max} lines (CART_MAX_LINES)` },
  ]);

/** POST /v1/models/{id}/retire: no new lines (nor previews, nor reconfigured ones). */
export const modelRetired = () =>
  ApiError.conflict('The model is retired', [
    { code: 'model_retired', message: 'The supplier retired this model: it takes no new lines' },
  ]);

/** What a configuration was evaluated against and what came out, in the asked view. */
/** PUT /v1/carts/{cart_id}/lines/{line_id}: the new line and its ETag (a header). */
export interface ReplacedLine {
  line: AddedCartLineDto | CompactAddedCartLineDto;
  etag: string;
}

/** How a stored line is replaced: on which version, and against which revision. */
export interface Replacement {
  /** The model version to evaluate on (the line's own, or a newer one to move to). */
  versionNumber: number;
  /** The caller's `If-Match` header, if any. */
  ifMatch: string | undefined;
  view: LineView;
}

const invalidConfiguration = (errors: Problem[]) =>
  new ApiError(HttpStatus.UNAUTHORIZED, 'The configuration is not valid', errors);

/**
 * Turns a configuration into a cart line: access checks, evaluation with the model's
 * compiled current version (from the cache: no parsing per request), and storage.
 */
@Injectable()
export class CartLinesService {
  /** Evaluations pause for the event loop every EVENT_LOOP_SLICE_MS (large models). */
  private readonly slicing: Slicing;

  constructor(
    private readonly carts: CartRepository,
    private readonly defaults: DefaultCarts,
    private readonly models: ModelsService,
    private readonly access: AccessService,
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
    private readonly urls: AssetUrls,
  ) {
    this.slicing = slicingOf(config.eventLoopSliceMs);
  }

  /** POST /v1/carts: an invalid configuration answers 401 (seed contract) and stores nothing. */
  async add(
    principal: Principal,
    input: AddCartLineDto,
    view: LineView = 'full',
  ): Promise<AddedCartLineDto | CompactAddedCartLineDto> {
    const configured = await this.configure(principal, input, view);
    const { evaluation } = configured;
    if (!evaluation.valid) throw invalidConfiguration(evaluation.errors);
    const cart = await this.defaults.resolveTargetCart(principal, input.cart_id);
    const pricing = evaluation.line.pricing;
    const row = lineRow(cart.id, input, configured);
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
    return storedAnswer(stored.id, cart.id, configured, view);
  }

  /**
   * Replaces a stored line with `answers` evaluated on `how.versionNumber` (PUT: the
   * line's own version; a recheck's apply: a newer one), through the path POST /v1/carts
   * takes: the same access check, evaluation and row. Refused like POST /v1/carts (401
   * with every problem, 403, 409 retired), storing nothing; 409 `stale_line` when
   * `If-Match` names an older revision, also when another replacement wins meanwhile.
   */
  async replace(
    principal: Principal,
    line: CartLineEntity,
    answers: Pick<ConfigurationDto, 'questions' | 'language_code'>,
    how: Replacement,
  ): Promise<ReplacedLine> {
    if (!lineIfMatchAccepts(how.ifMatch, line.revision)) throw staleLine(line.revision);
    const input: LineInput = {
      model_id: line.modelId,
      company_id: line.companyId,
      questions: answers.questions,
      language_code: answers.language_code,
    };
    const configured = await this.configure(principal, input, how.view, how.versionNumber);
    if (!configured.evaluation.valid) throw invalidConfiguration(configured.evaluation.errors);
    const row = lineRow(line.cartId, input, configured);
    // Same version or newer, same model: same currency and company, so the cart's rules
    // hold. With If-Match the replacement is conditional on the revision read, so that a
    // concurrent one makes it lose with a 409; without, the last one wins.
    const expected = how.ifMatch === undefined ? null : line.revision;
    const revision = await this.carts.withCartLocked(line.cartId, async (locked) => {
      const replaced = await locked.replaceLine(line.id, expected, row);
      if (replaced !== null) return replaced;
      return (await locked.findLine(line.cartId, line.id)) === null ? null : false;
    });
    if (revision === null) throw lineNotFound();
    if (revision === false) throw staleLine(line.revision + 1);
    return {
      line: storedAnswer(line.id, line.cartId, configured, how.view),
      etag: lineEtag(revision),
    };
  }

  /** POST /v1/carts/preview: the same evaluation, nothing stored. */
  async preview(
    principal: Principal,
    input: ConfigurationDto,
    view: LineView = 'full',
  ): Promise<PreviewLineDto | CompactPreviewLineDto> {
    const { evaluation } = await this.configure(principal, input, view);
    return {
      ...evaluation.line,
      view,
      id: null,
      valid: evaluation.valid,
      errors: evaluation.errors,
      warnings: evaluation.warnings,
    } as PreviewLineDto | CompactPreviewLineDto; // the line was evaluated in `view`
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
    // By the row's ids: a cached version costs no query (the model row is not needed).
    const compiled = await this.models.compiledVersion(row.modelId, row.versionNumber);
    const evaluation = await this.evaluate(compiled, {
      modelId: row.modelId,
      versionNumber: row.versionNumber,
      questions: row.answers,
      languageCode: row.languageCode,
      assetUrl: (path) =>
        this.urls.url({
          companyId: row.companyId,
          modelId: row.modelId,
          versionNumber: row.versionNumber,
          path,
        }),
      view,
    });
    return evaluation.line;
  }

  /**
   * Evaluates against the model's compiled current version (or `pinned`, a stored line's
   * version), once AccessService allows it; a retired model takes no new configuration.
   */
  async configure(
    principal: Principal,
    input: LineInput,
    view: LineView,
    pinned?: number,
  ): Promise<Configured> {
    // Company, model and link in one query; the compiled version from the cache.
    const model = await this.access.requireConfigurable(
      principal,
      input.company_id,
      input.model_id,
    );
    if (model.retired) throw modelRetired();
    const versionNumber = pinned ?? model.versionNumber;
    const compiled = await this.models.compiledVersion(model.id, versionNumber);
    const started = performance.now();
    const evaluation = await this.evaluate(compiled, {
      modelId: model.id,
      versionNumber,
      questions: input.questions,
      languageCode: input.language_code ?? null,
      // Company-scoped, so that whoever may use the line (an intent token too) may load them.
      assetUrl: (path) =>
        this.urls.url({
          companyId: input.company_id,
          modelId: model.id,
          versionNumber,
          path,
        }),
      view,
    });
    this.metrics.observeEvaluation(
      performance.now() - started,
      evaluation.valid ? 'valid' : 'invalid',
    );
    return { modelId: model.id, versionNumber, companyId: input.company_id, evaluation };
  }

  /**
   * A stored line's answers evaluated on `versionNumber`, in the full view. No access
   * check: for callers that decided already (a version's impact for its supplier).
   */
  async evaluateStored(row: CartLineEntity, versionNumber: number): Promise<Evaluation> {
    const compiled = await this.models.compiledVersion(row.modelId, versionNumber);
    const evaluation = await this.evaluate(compiled, {
      modelId: row.modelId,
      versionNumber,
      questions: row.answers,
      languageCode: row.languageCode,
      assetUrl: (path) =>
        this.urls.url({ companyId: row.companyId, modelId: row.modelId, versionNumber, path }),
      view: 'full',
    });
    return evaluation as Evaluation;
  }

  private evaluate(
    compiled: CompiledModel,
    request: EvaluationRequest,
  ): Promise<Evaluation<CartLine | CompactCartLine>> {
    return evaluateConfigurationInSlices(compiled, request, this.slicing);
  }
}
