import { ApiProperty } from '@nestjs/swagger';
import type { CartLineEntity } from '../cart-line.entity.js';
import type { CartEntity } from '../cart.entity.js';
import { cartTotals } from '../cart-totals.js';
import { CartDto } from './cart.dto.js';

export class CurrencyTotalDto {
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ example: '1234.50', description: 'Decimal string' }) total: string;
}

/**
 * One stored cart line: the evaluated line as the engine produced it (MODEL_FORMAT.md,
 * "The cart line": general, questions, pricing, ...) plus the columns stored beside it.
 */
export class CartLineDto {
  [section: string]: unknown;

  @ApiProperty() id: number;
  @ApiProperty() model_id: number;
  @ApiProperty({ description: 'The model version the line was evaluated with' })
  version_number: number;
  @ApiProperty() company_id: number;
  @ApiProperty({ nullable: true, type: String }) language_code: string | null;
  @ApiProperty({ example: '1234.50', description: 'pricing.total, a decimal string' })
  total: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ description: 'The answers the line was configured with (`questions` input)' })
  answers: Record<string, unknown>;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) created_at: string;

  /** `evaluated`: the line as evaluated (rebuilt from the model version for compact rows). */
  static from(line: CartLineEntity, evaluated: Record<string, unknown>): CartLineDto {
    return {
      // The stored columns are authoritative, so they are spread over the line JSON.
      ...evaluated,
      id: line.id,
      model_id: line.modelId,
      version_number: line.versionNumber,
      company_id: line.companyId,
      language_code: line.languageCode,
      total: line.total,
      currency: line.currency,
      answers: line.answers,
      created_at: line.createdAt.toISOString(),
    };
  }
}

/** GET /v1/carts/{cart_id}: the cart, its lines and what they add up to. */
export class CartDetailDto extends CartDto {
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'EUR',
    description: 'Null while the cart is empty (or if it held several currencies)',
  })
  currency: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    example: '1234.50',
    description: 'Exact sum of the line totals; "0" when empty, null if currencies were mixed',
  })
  total: string | null;

  @ApiProperty({ type: () => [CurrencyTotalDto], description: 'One total per currency' })
  totals: CurrencyTotalDto[];

  @ApiProperty({
    type: () => [CartLineDto],
    description: 'One page of the lines (`page`, `per_page`; `links` pages on)',
  })
  lines: CartLineDto[];

  /** `prices`: every line's, so the totals cover the whole cart whatever the page. */
  static withLines(
    cart: CartEntity,
    prices: Array<{ total: string; currency: string }>,
    lines: CartLineDto[],
  ): CartDetailDto {
    return { ...CartDto.from(cart), ...cartTotals(prices), lines };
  }
}
