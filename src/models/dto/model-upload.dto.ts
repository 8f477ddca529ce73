import { ApiProperty } from '@nestjs/swagger';
import { ProblemDto } from '../../common/swagger/envelope.schema.js';
import type { Problem } from '../../engine/index.js';
import { ModelDto } from './model.dto.js';

/** The answer of an upload: the model, with the warnings of the analysis (dead options). */
export class ModelUploadDto extends ModelDto {
  @ApiProperty({
    type: [ProblemDto],
    description: 'Dead options (code `dead_option`, path `questions.<q>.options.<o>`)',
  })
  warnings: Problem[];

  static withWarnings(model: ModelDto, deadOptions: readonly string[]): ModelUploadDto {
    return { ...model, warnings: deadOptionWarnings(deadOptions) };
  }
}

export function deadOptionWarnings(deadOptions: readonly string[]): Problem[] {
  return deadOptions.map((path) => ({
    code: 'dead_option',
    message: 'no valid configuration can use this option',
    path,
  }));
}
