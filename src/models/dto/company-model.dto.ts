import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import type { DescribedQuestion, ModelDescription } from '../../engine/index.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ModelDto } from './model.dto.js';
import type { ModelEntity } from '../model.entity.js';

/** `?page=&per_page=&language_code=` of GET /v1/companies/{id}/models. */
export class CompanyModelsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    example: 'nl',
    description: "Labels in this language (else the model's default language)",
  })
  @IsOptional()
  @Matches(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, {
    message: 'language_code must be a language code such as nl or en-GB',
  })
  language_code?: string;
}

/** A model a company may configure: the model object, labels translated, and its questions. */
export class CompanyModelDto extends ModelDto {
  @ApiProperty({ example: 'en', description: 'The language the labels are in' })
  language: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      'key, type, label, description, unit, required / required_if, visible_if, default / ' +
      'default_expr, options [{key, label, description, price, available_if, image}] and limits',
  })
  questions: DescribedQuestion[];

  static describe(model: ModelEntity, description: ModelDescription): CompanyModelDto {
    return {
      ...ModelDto.from(model, description.general),
      language: description.language,
      questions: description.questions,
    };
  }
}
