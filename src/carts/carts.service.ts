import { Injectable, type OnModuleInit } from '@nestjs/common';
import { IdempotentWork } from '../idempotency/idempotent-work.js';
import { Replays, type IdempotencyReference } from '../idempotency/replays.js';
import { AccessService } from '../access/access.service.js';
import { Page, StreamedPage } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import type { Principal } from '../principal/principal.js';
import type { CartEntity } from './cart.entity.js';
import { CartRepository } from './cart.repository.js';
import { cartNotFound, DefaultCarts } from './default-carts.service.js';
import { CartDetailDto, type CartDetailWith, type CartLineDto } from './dto/cart-detail.dto.js';
import { JsonText } from '../common/http/json-text.js';
import type { CartLineEntity } from './cart-line.entity.js';
import { CartLinesQueryDto } from './dto/cart-lines-query.dto.js';
import { CartDto } from './dto/cart.dto.js';
import type { CreateCartDto } from './dto/create-cart.dto.js';
import type { UpdateCartDto } from './dto/update-cart.dto.js';
import { CartSummaryRepository } from './cart-summary.repository.js';
import { CartPageRepository } from './cart-page.repository.js';
import { ModelVersionsService } from '../models/versions/model-versions.service.js';
import { StoredLines } from './stored-lines.service.js';

type FullLinesQuery = CartLinesQueryDto & { view: 'full' };

/**
 * A cart with one page of its lines (CartLineDto, or CompactCartLineDto for the compact
 * view: each line's `view` says which), streamed: each line's stored bytes are inflated
 * as the answer is sent.
 */
export type CartPage = StreamedPage<CartDetailWith<never>>;

/** Lines of a page inflated ahead of the one being sent (zlib's pool has 4 threads by default). */
const INFLATES_AHEAD = 4;

/** The cart a line removal answers: its first page of lines, in the full view. */
const FULL_FIRST_PAGE: FullLinesQuery = Object.freeze(
  Object.assign(new CartLinesQueryDto(), { view: 'full' as const }),
);

/**
 * The cart routes. Carts are personal: only their user sees them, admins included. An
 * intent token acts as its user but sees only the carts recorded with its company.
 */
/** What an Idempotency-Key of POST /v1/carts/new keeps: the cart, and the answer to replay. */
const CART_REFERENCE = 'cart';
interface CartReference extends IdempotencyReference {
  cart_id: string;
  answer: CartDto;
}

@Injectable()
export class CartsService implements OnModuleInit {
  constructor(
    private readonly carts: CartRepository,
    private readonly defaults: DefaultCarts,
    private readonly access: AccessService,
    private readonly storedLines: StoredLines,
    private readonly summaries: CartSummaryRepository,
    private readonly versions: ModelVersionsService,
    private readonly pages: CartPageRepository,
    private readonly work: IdempotentWork,
    private readonly replays: Replays,
  ) {}

  onModuleInit(): void {
    this.replays.register(CART_REFERENCE, async (principal, reference) => {
      const { cart_id, answer } = reference as CartReference;
      await this.defaults.getVisible(principal, cart_id);
      return answer;
    });
  }

  /** POST /v1/carts/new; an Idempotency-Key commits with the cart (its replay: 404 once not visible). */
  async create(principal: Principal, input: CreateCartDto): Promise<CartDto> {
    const keyStep = this.work.step((cart: CartEntity) => ({
      reference: { kind: CART_REFERENCE, cart_id: cart.id, answer: CartDto.from(cart) },
    }));
    return CartDto.from(await this.defaults.create(principal, input, keyStep));
  }

  /** One page of the caller's carts, oldest first; 400 when the caller has none. */
  async list(principal: Principal, query: PageQueryDto): Promise<Page<CartDto>> {
    const [carts, total] = await this.carts.page(
      this.access.cartScope(principal),
      query.offset,
      query.per_page,
    );
    if (total === 0) {
      throw ApiError.badRequest('Carts not found', [cartNotFound('Carts not found')]);
    }
    const summaries = await this.summaries.summaries(carts.map((cart) => cart.id));
    return new Page(
      carts.map((cart) => CartDto.from(cart, summaries.get(cart.id))),
      query.page,
      query.per_page,
      total,
    );
  }

  /** The caller's default cart; 400 when there is none the caller may see. */
  async getDefault(principal: Principal): Promise<CartDto> {
    const cart = await this.carts.findDefaultIn(this.access.cartScope(principal));
    if (!cart) {
      throw ApiError.badRequest('Cart was not found', [cartNotFound('Cart was not found')]);
    }
    return this.summarized(cart);
  }

  /**
   * PATCH /v1/carts/{cart_id}: a new reference, and `default` true (the default moves
   * here) or false (a default cart stops being one: the caller has none until one is
   * chosen or POST /v1/carts makes one).
   */
  async update(principal: Principal, cartId: string, input: UpdateCartDto): Promise<CartDto> {
    const cart = await this.defaults.getVisible(principal, cartId);
    if (input.reference !== undefined) {
      await this.summaries.rename(cart.id, input.reference);
      cart.reference = input.reference;
    }
    if (input.default === true && !cart.isDefault) {
      await this.carts.moveDefault(cart.userId, cart.id);
      cart.isDefault = true;
    } else if (input.default === false && cart.isDefault) {
      await this.summaries.clearDefault(cart.id);
      cart.isDefault = false;
    }
    return this.summarized(cart);
  }

  /**
   * DELETE /v1/carts/{cart_id}: the cart and its lines; answers the cart as it was.
   * Deleting the default cart leaves the caller without one until one is chosen
   * (PATCH `default: true`, POST /v1/carts/new `default: true`) or POST /v1/carts
   * creates one ("default") as on first use.
   */
  async remove(principal: Principal, cartId: string): Promise<CartDto> {
    const cart = await this.defaults.getVisible(principal, cartId);
    const before = await this.summarized(cart);
    if (!(await this.summaries.remove(cart.id))) {
      throw ApiError.notFound('Cart not found', [cartNotFound('Cart not found', 'cart_id')]);
    }
    return before;
  }

  /** The cart with what its lines say (its company). */
  private async summarized(cart: CartEntity): Promise<CartDto> {
    const summaries = await this.summaries.summaries([cart.id]);
    return CartDto.from(cart, summaries.get(cart.id));
  }

  /** A visible cart with one page of its lines (oldest first) and the totals of all of them. */
  async get(principal: Principal, cartId: string, query: CartLinesQueryDto): Promise<CartPage> {
    const cart = await this.defaults.getVisible(principal, cartId);
    return this.detail(cart, query);
  }

  /** Removes one line of a visible cart (404 for a line not in it); answers the cart left. */
  async removeLine(principal: Principal, cartId: string, lineId: number): Promise<CartPage> {
    const cart = await this.defaults.getVisible(principal, cartId);
    if (!(await this.carts.deleteLine(cart.id, lineId))) {
      throw ApiError.notFound('Cart line not found', [
        cartNotFound('Cart line not found', 'line_id'),
      ]);
    }
    return this.detail(cart, FULL_FIRST_PAGE);
  }

  /**
   * One page of the cart's lines in the query's view: each line is its stored snapshot
   * (no engine runs), inflated as the answer is sent, a few at a time (lineBytes). Rows
   * from before snapshots whose line is empty are evaluated (and their snapshot stored)
   * first, so that nothing that may fail runs once the answer has begun. The line count
   * is the summary's (one read of the cart's prices, which the totals need anyway).
   */
  private async detail(cart: CartEntity, query: CartLinesQueryDto): Promise<CartPage> {
    const rows = await this.pages.linesOfPage(cart.id, query.offset, query.per_page);
    const latest = await this.versions.currentVersions(rows.map((row) => row.modelId));
    for (const row of rows)
      if (row.snapshot === null && Object.keys(row.line).length === 0)
        await this.storedLines.lineAnswer(row, query.view);
    const summary = (await this.summaries.summaries([cart.id])).get(cart.id);
    const detail = CartDetailDto.withLines<never>(cart, summary?.prices ?? [], [], summary);
    const lines = this.lineBytes(rows, query.view, latest);
    const total = summary?.lineCount ?? 0;
    return new StreamedPage(detail, 'lines', lines, query.page, query.per_page, total);
  }

  /**
   * The page's lines in order, each inflated in zlib's thread pool with up to
   * INFLATES_AHEAD more already under way: ten one after another left the pool's threads
   * idle while the event loop waited on each (docs/adr/0055). Bounded, so that a page of
   * large lines is not all held inflated at once.
   */
  private async *lineBytes(
    rows: CartLineEntity[],
    view: CartLinesQueryDto['view'],
    latest: Map<number, number>,
  ): AsyncGenerator<readonly Buffer[]> {
    const answers: Array<Promise<JsonText | CartLineDto> | undefined> = [];
    const start = (index: number): void => {
      if (index >= rows.length) return;
      const row = rows[index];
      const answer = this.storedLines.lineAnswer(row, view, latest.get(row.modelId));
      // Awaited in its turn; one the client no longer waits for must not go unhandled.
      answer.catch(() => undefined);
      answers[index] = answer;
    };
    for (let index = 0; index < INFLATES_AHEAD; index++) start(index);
    for (let index = 0; index < rows.length; index++) {
      start(index + INFLATES_AHEAD);
      const answer = await answers[index];
      answers[index] = undefined;
      yield answer instanceof JsonText ? answer.chunks : [Buffer.from(JSON.stringify(answer))];
    }
  }
}
