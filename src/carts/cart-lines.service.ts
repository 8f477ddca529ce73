import { HttpStatus, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import type { ConfigurationFacts } from '../access/access.repository.js';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../principal/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import type { JsonText } from '../common/http/json-text.js';
import type { LineView, Problem } from '../engine/index.js';
import { AssetUrls } from '../engine-runtime/asset-urls.js';
import { IdempotentWork } from '../idempotency/idempotent-work.js';
import { Referenced, Replays, type IdempotencyReference } from '../idempotency/replays.js';
import type { CartEntity } from './cart.entity.js';
import { CartRepository, type NewCartLineRow } from './cart.repository.js';
import { LineHeadRepository, type LineHead } from './line-head.repository.js';
import { AppConfig } from '../config/app-config.js';
import { cartNotFound, DefaultCarts } from './default-carts.service.js';
import { ADDED_REVISION, lineEtag, lineIfMatchAccepts, staleLine } from './line-etag.js';
import type { AddCartLineDto, ConfigurationDto } from './dto/add-cart-line.dto.js';
import type { PreviewConfigurationDto } from './dto/preview-configuration.dto.js';
import { lineWith } from './line-answer.js';
import { LineConfigurator } from './line-configurator.service.js';
import { addedMembers, lineRow, storedAnswer, type LineInput } from './line-rows.js';
import { deflatedSnapshot, snapshotBytes } from './stored-line.js';

const lineNotFound = () =>
  ApiError.notFound('Cart line not found', [cartNotFound('Cart line not found', 'line_id')]);

const cartFull = (max: number) =>
  ApiError.conflict('The cart is full', [
    { code: 'cart_full', message: `A cart holds at most ${max} lines (CART_MAX_LINES)` },
  ]);

/** PUT /v1/carts/{cart_id}/lines/{line_id}: the new line and its ETag (a header). */
export interface ReplacedLine {
  line: JsonText;
  etag: string;
}

/** How a stored line is replaced: on which version, and against which revision. */
export interface Replacement {
  /**
   * The model version to evaluate on (the line's own, or another one to move to);
   * undefined: the model's current version.
   */
  versionNumber: number | undefined;
  /** Carry the answers over by the nearest valid configuration (a line moved to a version). */
  move?: boolean;
  /** The caller's `If-Match` header, if any. */
  ifMatch: string | undefined;
  view: LineView;
  /**
   * The facts of configuring the line's model for its company, read with the line (PUT):
   * AccessService decides on them, without a query of its own. Absent: read (recheck).
   */
  facts?: ConfigurationFacts;
}

/** A refusal of a cart the server chose for an intent token that the intent's own cart avoids. */
function chosenCartRefused(principal: Principal, cart: CartEntity, error: unknown): boolean {
  if (principal.via !== 'intent' || cart.isIntentCart || !(error instanceof ApiError)) return false;
  return error.problems.some((p) => p.code === 'currency_mismatch' || p.code === 'cart_full');
}

const invalidConfiguration = (errors: Problem[]) =>
  new ApiError(HttpStatus.UNAUTHORIZED, 'The configuration is not valid', errors);

/** A cart holds one currency: a line that would bring another is refused (401, as an add). */
export const currencyMismatch = (other: string, currency: string): Problem => ({
  code: 'currency_mismatch',
  message: `This cart holds ${other} lines; a ${currency} line cannot join them`,
});

const currencyRefused = (other: string, currency: string) =>
  new ApiError(HttpStatus.UNAUTHORIZED, 'The line cannot go into this cart', [
    currencyMismatch(other, currency),
  ]);

/** A line's answers: the configuration's `questions` and language. */
export type LineAnswers = Pick<ConfigurationDto, 'questions' | 'language_code'>;

/** What an Idempotency-Key of POST /v1/carts keeps: the line it added. */
const LINE_REFERENCE = 'cart_line';
interface LineReference extends IdempotencyReference {
  cart_id: string;
  line_id: number;
  warnings: Problem[];
}

/** `?view=` of the request being replayed (validated when it was first made). */
const viewOf = (request: Request): LineView =>
  request.query.view === 'compact' ? 'compact' : 'full';

/**
 * Turns a configuration into a cart line: access checks and evaluation (LineConfigurator),
 * then storage of the line as the buyer saw it (its snapshot; read back by StoredLines).
 */
@Injectable()
export class CartLinesService implements OnModuleInit {
  constructor(
    private readonly carts: CartRepository,
    private readonly heads: LineHeadRepository,
    private readonly defaults: DefaultCarts,
    private readonly configurator: LineConfigurator,
    private readonly access: AccessService,
    private readonly config: AppConfig,
    private readonly replays: Replays,
    private readonly urls: AssetUrls,
    private readonly work: IdempotentWork,
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
    const configured = await this.configurator.configure(principal, input, view, {
      snapshot: true,
    });
    const { evaluation } = configured;
    if (!evaluation.valid) throw invalidConfiguration(evaluation.errors);
    // Deflated (a large view in zlib's pool) while the cart is resolved (awaited below;
    // should the cart be refused first, its outcome is not wanted).
    const snapshot = deflatedSnapshot(evaluation);
    snapshot.catch(() => undefined);
    let cart = await this.defaults.resolveTargetCart(principal, input.cart_id);
    const bytes = await snapshot;
    const referenceOf = (cartId: string, lineId: number): LineReference => ({
      kind: LINE_REFERENCE,
      cart_id: cartId,
      line_id: lineId,
      warnings: evaluation.warnings,
    });
    const storeIn = (target: CartEntity) =>
      this.insertInto(target, lineRow(target.id, input, configured, bytes), input, (id) =>
        referenceOf(target.id, id),
      );
    let stored: { id: number };
    try {
      stored = await storeIn(cart);
    } catch (error) {
      // A cart the server chose for an intent token that cannot take this line (another
      // currency, full): the line goes to the intent's own cart instead of a refusal.
      if (!(input.cart_id === undefined && chosenCartRefused(principal, cart, error))) throw error;
      cart = await this.defaults.intentCart(principal);
      stored = await storeIn(cart);
    }
    // The line's bytes as the worker wrote them, with the members of the stored row; an
    // Idempotency-Key keeps only the reference (replayAdd).
    return new Referenced(
      storedAnswer({ id: stored.id, cartId: cart.id, revision: ADDED_REVISION }, configured, view),
      referenceOf(cart.id, stored.id),
    );
  }

  /**
   * Checks and inserts under the cart's lock, so that two lines in different currencies
   * racing into one cart cannot both get in. The Idempotency-Key commits with the line:
   * never a line without its key's answer.
   */
  private insertInto(
    cart: CartEntity,
    row: NewCartLineRow,
    input: AddCartLineDto,
    referenceOf: (lineId: number) => LineReference,
  ) {
    const keyStep = this.work.step((line: { id: number }) => ({ reference: referenceOf(line.id) }));
    return this.carts.withCartLocked(
      cart.id,
      async (locked) => {
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
          row.currency,
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
      },
      keyStep,
    );
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
    if (row === null) throw lineNotFound();
    // In the order of a fresh request: the configuration's access, then the cart's.
    await this.access.requireConfigurable(principal, row.companyId, row.modelId);
    await this.defaults.getVisible(principal, reference.cart_id);
    const snapshot = await snapshotBytes(row, view, this.urls);
    if (snapshot === null) throw lineNotFound();
    return lineWith(snapshot, addedMembers(row, reference.warnings, view));
  }

  /**
   * Replaces a stored line with `answers` evaluated on `how.versionNumber` (PUT: the
   * line's own version, or one it moves to; a recheck's apply: a newer one), through the
   * path POST /v1/carts takes: the same access check, evaluation and row (snapshot
   * included). A move carries the answers over by the nearest valid configuration and
   * stores the answers it led to. Refused like POST /v1/carts (401 with every problem,
   * `currency_mismatch` when the version's currency is not the cart's other lines', 403,
   * 409 retired), storing nothing; 409 `stale_line` when `If-Match` names an older
   * revision, also when another replacement wins meanwhile.
   */
  async replace(
    principal: Principal,
    line: LineHead,
    answers: LineAnswers,
    how: Replacement,
  ): Promise<ReplacedLine> {
    if (!lineIfMatchAccepts(how.ifMatch, line.revision)) throw staleLine(line.revision);
    const input: LineInput = {
      model_id: line.modelId,
      company_id: line.companyId,
      questions: answers.questions,
      language_code: answers.language_code,
    };
    const configured = await this.configurator.configure(principal, input, how.view, {
      pinned: how.versionNumber,
      snapshot: true,
      facts: how.facts,
      move: how.move,
    });
    const { evaluation } = configured;
    if (!evaluation.valid) throw invalidConfiguration(evaluation.errors);
    const stored = { ...input, questions: evaluation.answers ?? input.questions };
    const row = lineRow(line.cartId, stored, configured, await deflatedSnapshot(evaluation));
    // With If-Match the replacement is conditional on the revision read, so that a
    // concurrent one makes it lose with a 409; without, the last one wins.
    const expected = how.ifMatch === undefined ? null : line.revision;
    const revision =
      evaluation.currency === line.currency
        ? // Same model, company and currency: the cart's rules hold, so no cart lock
          // (CartRepository.replaceLine).
          await this.carts.replaceLine(line.id, expected, row)
        : await this.carts.withCartLocked(line.cartId, async (locked) => {
            // A version in another currency: the add's rule, checked under the cart's lock.
            const other = await locked.otherCurrency(line.cartId, evaluation.currency, line.id);
            if (other !== null) throw currencyRefused(other, evaluation.currency);
            return locked.replaceLine(line.id, expected, row);
          });
    if (revision === null) {
      const now = await this.heads.lineHead(line.cartId, line.id);
      throw now === null ? lineNotFound() : staleLine(now.revision);
    }
    return {
      line: storedAnswer({ id: line.id, cartId: line.cartId, revision }, configured, how.view),
      etag: lineEtag(revision),
    };
  }

  /** POST /v1/carts/preview: the same evaluation (guided when asked), nothing stored. */
  async preview(
    principal: Principal,
    input: PreviewConfigurationDto,
    view: LineView = 'full',
  ): Promise<JsonText> {
    const guidance = {
      ...(input.resolve === undefined ? {} : { resolve: input.resolve }),
      ...(input.complete === undefined ? {} : { complete: input.complete }),
    };
    const { evaluation } = await this.configurator.configure(principal, input, view, { guidance });
    // Its errors and warnings last, as the worker wrote them (`problems`). Their bytes,
    // moved here from the worker, are this answer's alone: freed once it is sent rather
    // than by a mark-compact of the main thread (docs/adr/0233).
    return lineWith(
      evaluation.line,
      { view, id: null, valid: evaluation.valid },
      evaluation.problems,
    ).spending([evaluation.line.buffer, evaluation.problems.buffer]);
  }
}
