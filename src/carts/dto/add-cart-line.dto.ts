import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { IsId } from '../../common/validation/is-id.decorator.js';

/** A configuration of a model: POST /v1/carts and POST /v1/carts/preview. */
export class ConfigurationDto {
  @ApiProperty({ example: 1, description: 'The model to configure (its current version is used)' })
  @IsId()
  model_id: number;

  @ApiProperty({
    example: 1,
    description: 'The buying company; it must be linked to the model’s supplier',
  })
  @IsId()
  company_id: number;

  @ApiPropertyOptional({
    example: 'nl',
    nullable: true,
    type: String,
    description: 'Labels in this language, falling back to the model’s default language',
  })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  @Matches(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$/, {
    message: 'language_code must be a language tag',
  })
  language_code?: string | null;

  @ApiProperty({
    description: 'Answers by question key; `values` is always an array ([] = unanswered)',
    example: {
      width: { values: [1200] },
      height: { values: [1000] },
      frame: { values: ['pvc'] },
      color: { values: ['white'] },
    },
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { values: { type: 'array', items: {} } },
    },
  })
  @IsObject()
  questions: Record<string, unknown>;
}

export class AddCartLineDto extends ConfigurationDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The cart to add to; default: the caller’s default cart (created when missing)',
  })
  @IsOptional()
  @IsUUID()
  cart_id?: string;
}
