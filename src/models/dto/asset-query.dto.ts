import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';

/** `?version=` of GET /v1/models/{id}/assets/{path}: an older version's file. */
export class AssetQueryDto {
  @ApiPropertyOptional({ minimum: 1, description: 'Model version (default: the current one)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  version?: number;
}
