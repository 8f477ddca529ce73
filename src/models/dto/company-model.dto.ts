import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import type {
  DescribedQuestion,
  DescribedRule,
  ModelDescription,
  QuestionType,
} from '../../engine/index.js';
import { ANSWER_VALUE, QUESTION_TYPES } from '../../common/swagger/engine-enums.js';
import { ApiDecimal } from '../../common/swagger/schema-types.js';
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

/** An option as a buyer's form shows it. */
export class DescribedOptionDto {
  @ApiProperty({ example: 'alu' }) key: string;
  @ApiProperty({ example: 'Aluminium' }) label: string;
  @ApiPropertyOptional({ example: 'Powder-coated aluminium profile' }) description?: string;
  @ApiDecimal({ example: '85.00' }) price: string;
  @ApiPropertyOptional({ example: "frame != 'wood'", description: 'CEL expression' })
  available_if?: string;
  @ApiPropertyOptional({
    example: '/v1/companies/1/models/1/assets/images/alu.svg?version=1',
    description: 'Image URL',
  })
  image?: string;
}

/** A question as a buyer's form shows it: labels translated, constraints as the model says. */
export class DescribedQuestionDto {
  @ApiProperty({ example: 'frame' }) key: string;
  @ApiProperty({ enum: QUESTION_TYPES, enumName: 'QuestionType' }) type: QuestionType;
  @ApiProperty({ example: 'Frame material' }) label: string;
  @ApiPropertyOptional({ example: 'The material of the frame' }) description?: string;
  @ApiPropertyOptional({ example: 'mm' }) unit?: string;
  @ApiProperty({ description: 'A literal required; false when required_if decides' })
  required: boolean;
  @ApiPropertyOptional({ example: "frame == 'wood'", description: 'CEL expression' })
  required_if?: string;
  @ApiPropertyOptional({ example: 'width > 1000', description: 'CEL expression' })
  visible_if?: string;
  @ApiProperty({
    type: 'array',
    items: ANSWER_VALUE,
    example: ['pvc'],
    description: 'The literal default as answer values ([] when none)',
  })
  default: unknown[];
  @ApiPropertyOptional({
    example: "width > 2000 ? 'triple' : 'double'",
    description: 'CEL expression',
  })
  default_expr?: string;
  @ApiPropertyOptional({ type: () => [DescribedOptionDto] }) options?: DescribedOptionDto[];
  @ApiPropertyOptional({ type: 'integer', format: 'int32' }) min_selected?: number;
  @ApiPropertyOptional({ type: 'integer', format: 'int32' }) max_selected?: number;
  @ApiPropertyOptional({ type: 'number' }) min?: number;
  @ApiPropertyOptional({ type: 'number' }) max?: number;
  @ApiPropertyOptional({ type: 'number' }) step?: number;
  @ApiPropertyOptional({ type: 'integer', format: 'int32' }) min_length?: number;
  @ApiPropertyOptional({ type: 'integer', format: 'int32' }) max_length?: number;
}

/** A rule that has a message of its own, translated (a compact line's reasons name rules). */
export class DescribedRuleDto {
  @ApiProperty({ example: 'max_alu_width' }) key: string;
  @ApiProperty({ enum: ['error', 'warning'], enumName: 'RuleSeverity' })
  severity: 'error' | 'warning';
  @ApiProperty({ example: 'Aluminium frames are at most 2000 mm wide' }) message: string;
}

/** A model a company may configure: the model object, labels translated, and its questions. */
export class CompanyModelDto extends ModelDto {
  @ApiProperty({ example: 'en', description: 'The language the labels are in' })
  language: string;

  @ApiProperty({ type: () => [DescribedQuestionDto] })
  questions: DescribedQuestion[];

  @ApiProperty({
    type: () => [DescribedRuleDto],
    description:
      'The rules that have a message, in model order (a rule without one is told by its key, ' +
      'as a line tells it): the messages of the rules a compact line names without listing them',
  })
  rules: DescribedRule[];

  static describe(model: ModelEntity, description: ModelDescription): CompanyModelDto {
    return {
      ...ModelDto.from(model, description.general),
      language: description.language,
      questions: description.questions,
      rules: description.rules,
    };
  }
}
