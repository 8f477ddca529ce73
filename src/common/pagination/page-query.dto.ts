import { ApiIntOptional } from '../swagger/schema-types.js';
import { OptionalQueryInt } from '../validation/query-int.js';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;
/** Past this, the offset would not fit the databases' integer arithmetic. */
export const MAX_PAGE = 1_000_000;

/** `?page=&per_page=` of every list (docs/api.md: default 50, max 200). */
export class PageQueryDto {
  @ApiIntOptional({ minimum: 1, maximum: MAX_PAGE, default: 1 })
  @OptionalQueryInt(1, MAX_PAGE)
  page: number = 1;

  @ApiIntOptional({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })
  @OptionalQueryInt(1, MAX_PER_PAGE)
  per_page: number = DEFAULT_PER_PAGE;

  get offset(): number {
    return (this.page - 1) * this.per_page;
  }
}
