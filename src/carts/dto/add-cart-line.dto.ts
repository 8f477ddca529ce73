import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsOptional, IsString, IsUUID, Matches, Min } from 'class-validator';

/** A configuration of a model: POST /v1/carts and POST /v1/carts/preview. */
export class ConfigurationDto {
  @ApiProperty({ example: 1, description: 'The model to configure (its current version is used)' })
  @IsInt()
  @Min(1)
  model_id: number;

  @ApiProperty({
    example: 1,
    description: 'The buying company; it must be linked to the model’s supplier',
  })
  @IsInt()
  @Min(1)
  company_id: number;

  @ApiPropertyOptional({
    example: 'nl',
    nullable: true,
    type: String,
    description: 'Labels in this language, falling back to the model’s default language',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, {
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
