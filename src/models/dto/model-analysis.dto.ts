import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ModelAnalysis } from '../../engine/index.js';

class DiagramSizeDto {
  @ApiProperty({ example: 7515 }) nodes: number;
  @ApiProperty({ example: 30546 }) edges: number;
  @ApiProperty({ example: 185876, description: 'Bytes of the compiled form' }) bytes: number;
}

/** docs/model-format.md "Model analysis": the compiled solution space of a version. */
export class ModelAnalysisDto {
  @ApiProperty({ description: 'The whole finite part was compiled (availability is exact)' })
  exact: boolean;
  @ApiPropertyOptional({
    example: 'compile budget exceeded: availability by propagation',
    description: 'Why not exact (compile budget, enumeration bound); absent when exact',
  })
  reason?: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '278744',
    description:
      'Valid configurations with no answers (decimal string), only when `exact`; null otherwise',
  })
  configurations: string | null;
  @ApiPropertyOptional({
    example: '19251139296090',
    description:
      'When not exact: an upper bound of the configurations (decimal string), when one is known',
  })
  configurations_at_most?: string;
  @ApiProperty({
    type: [String],
    example: ['questions.frame.options.oak'],
    description: 'Options no valid configuration can use',
  })
  dead_options: string[];
  @ApiProperty({ example: 420 }) compile_ms: number;
  @ApiProperty({ type: DiagramSizeDto }) size: DiagramSizeDto;

  static from(analysis: ModelAnalysis): ModelAnalysisDto {
    return {
      exact: analysis.exact,
      ...(analysis.reason === undefined ? {} : { reason: analysis.reason }),
      configurations: analysis.exact ? analysis.configurations : null,
      ...(analysis.configurations_at_most === undefined
        ? {}
        : { configurations_at_most: analysis.configurations_at_most }),
      dead_options: [...analysis.dead_options],
      compile_ms: analysis.compile_ms,
      size: { ...analysis.size },
    };
  }
}
