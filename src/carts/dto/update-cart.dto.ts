import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ApiSchemaExample } from '../../common/swagger/schema-types.js';

/** PATCH /v1/carts/{cart_id}: what is given changes, the rest stays. */
@ApiSchemaExample({ reference: 'Showroom order 2026-12', default: true })
export class UpdateCartDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, example: 'Showroom order 2026-12' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'reference must not be blank' })
  reference?: string;

  @ApiPropertyOptional({
    example: true,
    description:
      "true: make this the caller's default cart (the previous default stops being one). " +
      'false on the default cart: the caller has no default cart until one is chosen or ' +
      'POST /v1/carts creates one; false on another cart changes nothing.',
  })
  @IsOptional()
  @IsBoolean()
  default?: boolean;
}
