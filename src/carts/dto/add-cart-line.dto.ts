import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { IsId } from '../../common/validation/is-id.decorator.js';
import { PassThroughObject } from '../../common/validation/pass-through.js';
import { ApiId, ApiSchemaExample } from '../../common/swagger/schema-types.js';
import { ANSWER_VALUE } from '../../common/swagger/engine-enums.js';

/** The README's window model (model 1) bought by its company 1: succeeds as it is. */
export const CONFIGURATION_EXAMPLE = {
  model_id: 1,
  company_id: 1,
  language_code: 'en',
  questions: {
    width: { values: [1200] },
    height: { values: [1000] },
    frame: { values: ['alu'] },
    color: { values: ['white'] },
  },
};

/** `questions` of a configuration (and of a line's new answers). */
export const QUESTIONS_PROPERTY: ApiPropertyOptions = {
  description: 'Answers by question key; `values` is always an array ([] = unanswered)',
  example: CONFIGURATION_EXAMPLE.questions,
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['values'],
    additionalProperties: false,
    properties: {
      values: {
        type: 'array',
        items: ANSWER_VALUE,
      },
    },
  },
};

/** A configuration of a model: POST /v1/carts and POST /v1/carts/preview. */
@ApiSchemaExample(CONFIGURATION_EXAMPLE)
export class ConfigurationDto {
  @ApiId({ description: 'The model to configure (its current version is used)' })
  @IsId()
  model_id: number;

  @ApiId({ description: 'The buying company; it must be linked to the model’s supplier' })
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

  @ApiProperty(QUESTIONS_PROPERTY)
  @IsObject()
  // Handed to the engine as parsed: it checks every answer against the model.
  @PassThroughObject()
  questions: Record<string, unknown>;
}

/** Without `cart_id` the line goes into the caller's default cart. */
@ApiSchemaExample(CONFIGURATION_EXAMPLE)
export class AddCartLineDto extends ConfigurationDto {
  @ApiPropertyOptional({
    format: 'uuid',
    example: '0b5e6f9e-3c1a-4a57-9c52-2f0d7b1f4a10',
    description: 'The cart to add to; default: the caller’s default cart (created when missing)',
  })
  @IsOptional()
  @IsUUID()
  cart_id?: string;
}
