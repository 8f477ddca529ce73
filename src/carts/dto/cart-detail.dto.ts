import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { lineEtag } from '../line-etag.js';
import {
  ApiDecimal,
  INT32,
  ApiId,
  ApiNullableString,
  ApiTimestamp,
} from '../../common/swagger/schema-types.js';
import type { CartLine, CompactCartLine } from '../../engine/index.js';
import type { CartLineEntity } from '../cart-line.entity.js';
import type { LineView } from '../compact-line.js';
import type { CartEntity } from '../cart.entity.js';
import { cartTotals } from '../cart-totals.js';
import type { CartLineSummary } from '../cart-summary.repository.js';
import { CartDto } from './cart.dto.js';
import { EvaluatedLineDto } from './cart-line-result.dto.js';

/** A stored line in either view, told apart by `view` (CompactCartLineDto: compact-line.dto.ts). */
const LINE_OF_EITHER_VIEW = {
  oneOf: [{ $ref: getSchemaPath('CartLineDto') }, { $ref: getSchemaPath('CompactCartLineDto') }],
  discriminator: {
    propertyName: 'view',
    mapping: {
      full: getSchemaPath('CartLineDto'),
      compact: getSchemaPath('CompactCartLineDto'),
    },
  },
};

export class CurrencyTotalDto {
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiDecimal({ example: '1234.50' }) total: string;
}

/**
 * One stored cart line: the evaluated line as the engine produced it (docs/model-format.md,
 * "The cart line": general, questions, pricing, ...) plus the columns stored beside it.
 */
export class CartLineDto extends EvaluatedLineDto {
  @ApiId() id: number;
  @ApiId() model_id: number;
  @ApiId() company_id: number;
  @ApiNullableString({ example: 'en' }) language_code: string | null;
  @ApiDecimal({ example: '1234.50', description: 'pricing.total' })
  total: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { values: { type: 'array', items: {} } },
      required: ['values'],
    },
    example: { width: { values: [1200] } },
    description: 'The answers the line was configured with (`questions` input)',
  })
  answers: Record<string, unknown>;
  @ApiTimestamp() created_at: string;
  @ApiProperty({
    example: '"1"',
    description: "The line's ETag: `If-Match` of PUT /v1/carts/{cart_id}/lines/{line_id}",
  })
  etag: string;
  @ApiProperty({
    ...INT32,
    nullable: true,
    example: null,
    description:
      'The model’s current version when it has moved on from the line’s (null while the ' +
      'line is on it): POST …/lines/{line_id}/recheck tells what moving there changes',
  })
  latest_version_number: number | null;

  /**
   * `evaluated`: the line as evaluated (rebuilt from the model version for compact rows),
   * in either view; a compact one makes what CompactCartLineDto describes (the caller
   * types the page by its view).
   */
  static from(
    line: CartLineEntity,
    evaluated: CartLine | CompactCartLine,
    view: LineView = 'full',
    latestVersion?: number,
  ): CartLineDto {
    return {
      // The stored columns are authoritative, so they are spread over the line JSON.
      ...(evaluated as unknown as CartLine),
      view: view as 'full',
      id: line.id,
      model_id: line.modelId,
      version_number: line.versionNumber,
      company_id: line.companyId,
      language_code: line.languageCode,
      total: line.total,
      currency: line.currency,
      answers: line.answers,
      created_at: line.createdAt.toISOString(),
      etag: lineEtag(line.revision),
      latest_version_number:
        latestVersion !== undefined && latestVersion > line.versionNumber ? latestVersion : null,
    };
  }
}

/** A cart detail whose lines are `L` (a view's DTO; `never` for a StreamedPage's, sent from its stream). */
export type CartDetailWith<L> = Omit<CartDetailDto, 'lines'> & { lines: L[] };

/** GET /v1/carts/{cart_id}: the cart, its lines and what they add up to. */
export class CartDetailDto extends CartDto {
  @ApiProperty({ type: () => [CurrencyTotalDto], description: 'One total per currency' })
  totals: CurrencyTotalDto[];

  @ApiProperty({
    type: 'array',
    items: LINE_OF_EITHER_VIEW,
    description:
      'One page of the lines (`page`, `per_page`; `links` pages on), each in the asked view: ' +
      'its `view` tells which schema it follows',
  })
  lines: CartLineDto[];

  /**
   * `prices`: every line's, so the totals cover the whole cart whatever the page.
   * `lines`: full (CartLineDto) or compact (`?view=compact`).
   */
  static withLines<L = CartLineDto>(
    cart: CartEntity,
    prices: Array<{ total: string; currency: string }>,
    lines: L[],
    summary?: CartLineSummary,
  ): CartDetailWith<L> {
    return { ...CartDto.from(cart, summary), ...cartTotals(prices), lines };
  }
}
