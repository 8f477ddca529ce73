import { ApiProperty } from '@nestjs/swagger';
import type { CartEntity } from '../cart.entity.js';

/** A cart without its lines: what POST /v1/carts/new, GET /v1/carts and /default answer. */
export class CartDto {
  @ApiProperty({ format: 'uuid' }) cart_id: string;
  @ApiProperty({ example: 'Showroom order 2026-11' }) reference: string;
  @ApiProperty({ description: "The caller's default cart (exactly one per user)" })
  default: boolean;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The company of the intent token the cart was created with',
  })
  company_id: number | null;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) created_at: string;

  static from(cart: CartEntity): CartDto {
    return {
      cart_id: cart.id,
      reference: cart.reference,
      default: cart.isDefault,
      company_id: cart.companyId,
      created_at: cart.createdAt.toISOString(),
    };
  }
}
