import type { CartLine, CompactCartLine, Evaluation } from '../engine/index.js';
import type { NewCartLineRow } from './cart.repository.js';
import type { LineView } from './compact-line.js';
import type { ConfigurationDto } from './dto/add-cart-line.dto.js';
import type { AddedCartLineDto } from './dto/cart-line-result.dto.js';
import type { CompactAddedCartLineDto } from './dto/compact-line.dto.js';

/** The `line` column of a compactly stored row: nothing the model version can recompute. */
const COMPACT_LINE: Record<string, unknown> = {};

export interface Configured {
  modelId: number;
  versionNumber: number;
  companyId: number;
  evaluation: Evaluation<CartLine | CompactCartLine>;
}

/** The answers of a line to evaluate: a configuration, or a stored line's new answers. */
export type LineInput = Pick<
  ConfigurationDto,
  'model_id' | 'company_id' | 'questions' | 'language_code'
>;

/**
 * The row POST /v1/carts stores for a configuration, and a replacement stores in place
 * of a line: one builder, so both store lines alike.
 */
export function lineRow(cartId: string, input: LineInput, configured: Configured): NewCartLineRow {
  const pricing = configured.evaluation.line.pricing;
  return {
    cartId,
    modelId: configured.modelId,
    versionNumber: configured.versionNumber,
    companyId: input.company_id,
    languageCode: input.language_code ?? null,
    answers: input.questions,
    // Compact: the line is rebuilt from the compiled version on read (see lineView).
    line: COMPACT_LINE,
    total: pricing.total,
    currency: pricing.currency,
  };
}

/** What POST /v1/carts (and a replacement) answer: the evaluated line and where it is stored. */
export function storedAnswer(
  id: number,
  cartId: string,
  configured: Configured,
  view: LineView,
): AddedCartLineDto | CompactAddedCartLineDto {
  return {
    ...configured.evaluation.line,
    view,
    id,
    cart_id: cartId,
    model_id: configured.modelId,
    company_id: configured.companyId,
    warnings: configured.evaluation.warnings,
  } as AddedCartLineDto | CompactAddedCartLineDto; // the line was evaluated in `view`
}
