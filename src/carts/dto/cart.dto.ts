import { ApiProperty } from '@nestjs/swagger';
import { ApiNullableString, ApiTimestamp, INT32 } from '../../common/swagger/schema-types.js';
import { cartTotals } from '../cart-totals.js';
import type { CartEntity } from '../cart.entity.js';
import type { CartLineSummary } from '../cart-summary.repository.js';

/** A cart without its lines: what POST /v1/carts/new, GET /v1/carts and /default answer. */
export class CartDto {
  @ApiProperty({ format: 'uuid', example: '0b5e6f9e-3c1a-4a57-9c52-2f0d7b1f4a10' })
  cart_id: string;
  @ApiProperty({ example: 'Showroom order 2026-11' }) reference: string;
  @ApiProperty({ description: "The caller's default cart (exactly one per user)" })
  default: boolean;
  @ApiProperty({
    ...INT32,
    nullable: true,
    example: null,
    description:
      'The company whose lines the cart holds (a cart holds one company’s lines). A cart ' +
      'created with an intent token has its company from the start; any other cart is null ' +
      'until its first line and again once its last line is removed.',
  })
  company_id: number | null;
  @ApiTimestamp() created_at: string;
  @ApiProperty({ ...INT32, minimum: 0, example: 2, description: 'How many lines the cart holds' })
  line_count: number;
  @ApiNullableString({
    example: 'EUR',
    description: 'The currency of its lines; null while the cart is empty (or if it held several)',
  })
  currency: string | null;
  @ApiNullableString({
    pattern: '^-?\\d+(\\.\\d+)?$',
    example: '617.04',
    description:
      'Exact sum of the line totals (as stored); "0" when empty, null if currencies were mixed',
  })
  total: string | null;

  /** `lines`: what the cart's lines say (absent: it has none). */
  static from(cart: CartEntity, lines?: CartLineSummary): CartDto {
    const totals = cartTotals(lines?.prices ?? []);
    return {
      cart_id: cart.id,
      reference: cart.reference,
      default: cart.isDefault,
      company_id: cart.companyId ?? lines?.companyId ?? null,
      created_at: cart.createdAt.toISOString(),
      line_count: lines?.lineCount ?? 0,
      currency: totals.currency,
      total: totals.total,
    };
  }
}
