import { HttpStatus, Injectable, type OnModuleInit } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../principal/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import type { CartLine, LineView } from '../engine/index.js';
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
import { CartLineDto } from './dto/cart-detail.dto.js';
import { snapshotBytes, storedLine, type SnapshotColumns } from './stored-line.js';
import { Referenced, Replays, type IdempotencyReference } from '../idempotency/replays.js';
import type { Request } from 'express';
import type { Problem } from '../engine/index.js';

/** The legacy `line` column of a new row: the line is in its snapshot columns. */
const NO_LINE: Record<string, unknown> = {};

const cartFull = (max: number) =>
  ApiError.conflict('The cart is full', [
    { code: 'cart_full', message: `A cart holds at most ${max} lines (CART_MAX_LINES)` },
  ]);

/** What an Idempotency-Key of POST /v1/carts keeps: the line it added. */
const LINE_REFERENCE = 'cart_line';
interface LineReference extends IdempotencyReference {
  cart_id: string;
  line_id: number;
  warnings: Problem[];
}

/** The members POST /v1/carts adds to the evaluated line. */
const addedMembers = (row: Omit<CartLineEntity, 'createdAt'>, warnings: Problem[]) => ({
  id: row.id,
  cart_id: row.cartId,
  model_id: row.modelId,
  company_id: row.companyId,
  warnings,
});

/** `?view=` of the request being replayed (validated when it was first made). */
const viewOf = (request: Request): LineView =>
  request.query.view === 'compact' ? 'compact' : 'full';

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
export class CartLinesService implements OnModuleInit {
  constructor(
    private readonly carts: CartRepository,
    private readonly defaults: DefaultCarts,
    private readonly models: ModelsService,
    private readonly access: AccessService,
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
    private readonly replays: Replays,
  ) {}

  onModuleInit(): void {
    this.replays.register(LINE_REFERENCE, (principal, reference, request) =>
      this.replayAdd(principal, reference as LineReference, viewOf(request)),
    );
  }

  /** POST /v1/carts: an invalid configuration answers 401 (seed contract) and stores nothing. */
  async add(
    principal: Principal,
    input: AddCartLineDto,
    view: LineView = 'full',
  ): Promise<Referenced<JsonText>> {
    const { modelId, versionNumber, evaluation } = await this.configure(
      principal,
      input,
      view,
      true,
    );
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
      line: NO_LINE,
      total: pricing.total,
      currency: pricing.currency,
      ...snapshotColumns(evaluation),
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
    // The line's bytes as the worker wrote them, with the members of the stored row; an
    // Idempotency-Key keeps only the reference (replayAdd).
    const answer = lineWith(evaluation.line, addedMembers(stored, evaluation.warnings));
    const reference: LineReference = {
      kind: LINE_REFERENCE,
      cart_id: cart.id,
      line_id: stored.id,
      warnings: evaluation.warnings,
    };
    return new Referenced(answer, reference);
  }

  /**
   * A retry of POST /v1/carts with the same Idempotency-Key: the answer rebuilt from the
   * stored line, once the caller passes the checks a fresh request would (the cart is
   * theirs to see; they may configure the model for the line's company). 404 once the
   * line is gone.
   */
  private async replayAdd(
    principal: Principal,
    reference: LineReference,
    view: LineView,
  ): Promise<JsonText> {
    const row = await this.carts.findLine(reference.cart_id, reference.line_id);
    if (row === null) throw ApiError.notFound('Cart line not found');
    // In the order of a fresh request: the configuration's access, then the cart's.
    await this.access.requireConfigurable(principal, row.companyId, row.modelId);
    await this.defaults.getVisible(principal, reference.cart_id);
    const snapshot = await snapshotBytes(row, view);
    if (snapshot === null) throw ApiError.notFound('Cart line not found');
    const members = { version_number: row.versionNumber, ...addedMembers(row, reference.warnings) };
    return lineWith(snapshot, members);
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
   * A stored row as GET /v1/carts/{id} answers it: its snapshot (storedLine), never
   * evaluated again. Rows stored before snapshots: a whole `line` is served as stored; an
   * empty one (the compact rows of the release before) is evaluated once more and its
   * snapshot kept, so that it too is evaluated no more.
   */
  async lineAnswer(row: CartLineEntity, view: LineView = 'full'): Promise<JsonText | CartLineDto> {
    const stored = await storedLine(row, view);
    if (stored !== null) return stored;
    if (Object.keys(row.line).length > 0)
      return CartLineDto.from(row, lineInView(row.line as unknown as CartLine, view));
    const evaluation = await this.models.evaluateVersion(
      row.modelId,
      row.versionNumber,
      row.companyId,
      { questions: row.answers, languageCode: row.languageCode, view, snapshot: true },
    );
    const columns = snapshotColumns(evaluation);
    await this.carts.saveSnapshot(row.id, columns);
    return (await storedLine(Object.assign(row, columns), view)) as JsonText;
  }

  /** Evaluates against the model's compiled current version, once AccessService allows it. */
  private async configure(
    principal: Principal,
    input: ConfigurationDto,
    view: LineView,
    snapshot = false,
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
      { questions: input.questions, languageCode: input.language_code ?? null, view, snapshot },
    );
    this.metrics.observeEvaluation(
      performance.now() - started,
      evaluation.valid ? 'valid' : 'invalid',
    );
    return { modelId: model.id, versionNumber: model.versionNumber, evaluation };
  }
}

/** The snapshot columns of a row, from an evaluation that made its snapshot. */
function snapshotColumns(evaluation: EvaluatedLine): SnapshotColumns {
  const snapshot = evaluation.snapshot;
  if (snapshot === undefined) throw new Error('The evaluation made no snapshot');
  return {
    snapshot: snapshot.full,
    compactSnapshot: snapshot.compact,
    engineVersion: snapshot.engineVersion,
  };
}
