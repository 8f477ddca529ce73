import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { LINE_VIEWS, type LineView } from '../compact-line.js';
import { LINE_VIEW_QUERY } from './line-view-query.js';
import { OptionalQueryInt } from '../../common/validation/query-int.js';

/** Cart lines are large (a line of a 1,000-question model is ~750 kB): smaller pages. */
export const CART_LINES_DEFAULT_PER_PAGE = 10;
export const CART_LINES_MAX_PER_PAGE = 50;

/**
 * `?page=&per_page=&view=` of GET /v1/carts/{cart_id}: default 10, at most 50 lines a
 * page, full or compact lines.
 */
export class CartLinesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: CART_LINES_MAX_PER_PAGE,
    default: CART_LINES_DEFAULT_PER_PAGE,
  })
  @OptionalQueryInt(1, CART_LINES_MAX_PER_PAGE)
  override per_page: number = CART_LINES_DEFAULT_PER_PAGE;

  @ApiPropertyOptional(LINE_VIEW_QUERY)
  @IsOptional()
  @IsIn(LINE_VIEWS)
  view: LineView = 'full';
}
