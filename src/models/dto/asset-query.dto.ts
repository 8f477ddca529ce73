import { ApiIntOptional } from '../../common/swagger/schema-types.js';
import { Type } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { IsId } from '../../common/validation/is-id.decorator.js';

/** `?version=` of GET /v1/models/{id}/assets/{path}: an older version's file. */
export class AssetQueryDto {
  @ApiIntOptional({ minimum: 1, description: 'Model version (default: the current one)' })
  @IsOptional()
  @Type(() => Number)
  @IsId()
  version?: number;
}
