import { Injectable } from '@nestjs/common';
import type { Principal } from '../principal/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import type { CartLineEntity } from './cart-line.entity.js';
import { AccessService } from '../access/access.service.js';
import { isUuid } from '../common/http/id-param.js';
import { CartRepository } from './cart.repository.js';
import { LineHeadRepository, type LineHead } from './line-head.repository.js';
import { CartLinesService, type LineAnswers, type ReplacedLine } from './cart-lines.service.js';
import { cartNotFound, DefaultCarts } from './default-carts.service.js';
import type { LineView } from './compact-line.js';
import type { ReconfigureLineDto } from './dto/reconfigure-line.dto.js';

const lineNotFound = () =>
  ApiError.notFound('Cart line not found', [cartNotFound('Cart line not found', 'line_id')]);

/**
 * Changes to stored lines: reconfiguring one with new answers on its own model version,
 * and (recheck) the same answers on a newer version. The line is found in a cart the
 * caller may see (404 otherwise, as if it did not exist); the change itself goes through
 * CartLinesService.replace, the path of POST /v1/carts.
 */
@Injectable()
export class LineChangesService {
  constructor(
    private readonly carts: CartRepository,
    private readonly heads: LineHeadRepository,
    private readonly access: AccessService,
    private readonly defaults: DefaultCarts,
    private readonly lines: CartLinesService,
  ) {}

  /** PUT /v1/carts/{cart_id}/lines/{line_id}. */
  async reconfigure(
    principal: Principal,
    cartId: string,
    lineId: number,
    input: ReconfigureLineDto,
    ifMatch: string | undefined,
    view: LineView,
  ): Promise<ReplacedLine> {
    // The cart's visibility, the line and the facts AccessService decides configuring it
    // on, in one read; on a miss, which of cart and line is missing decides the 404's
    // wording (getVisible throws the cart's).
    const found = isUuid(cartId)
      ? await this.heads.lineToReplace(
          this.access.cartScope(principal),
          cartId.toLowerCase(),
          lineId,
          this.access.configurationFact(principal),
        )
      : null;
    if (!found) {
      await this.defaults.getVisible(principal, cartId);
      throw lineNotFound();
    }
    const { line, facts } = found;
    const target = input.version_number;
    if (target === undefined) {
      const answers = { questions: input.questions ?? {}, language_code: input.language_code };
      return this.lines.replace(principal, line, answers, {
        versionNumber: line.versionNumber,
        ifMatch,
        view,
        facts,
      });
    }
    // A move: the body's answers, or the stored ones, carried over to the version.
    const answers: LineAnswers =
      input.questions === undefined
        ? await this.storedAnswers(line)
        : { questions: input.questions, language_code: input.language_code };
    return this.lines.replace(
      principal,
      line,
      { questions: answers.questions, language_code: input.language_code ?? answers.language_code },
      { versionNumber: target === 'latest' ? undefined : target, move: true, ifMatch, view, facts },
    );
  }

  /** What a line was configured with, as a PUT's body says it. */
  private async storedAnswers(line: LineHead): Promise<LineAnswers> {
    const stored = await this.carts.findAnswers(line.cartId, line.id);
    if (stored === null) throw lineNotFound();
    return { questions: stored.answers, language_code: stored.languageCode };
  }

  /** A line of a cart the caller may see; 404 for either, as if it did not exist. */
  async visibleLine(principal: Principal, cartId: string, lineId: number): Promise<CartLineEntity> {
    const cart = await this.defaults.getVisible(principal, cartId);
    const line = await this.carts.findLine(cart.id, lineId);
    if (!line) throw lineNotFound();
    return line;
  }
}
