import { ApiError } from '../common/errors/api-error.js';
import { ifMatchNames } from '../common/http/if-match.js';

/** A stored line's ETag: its revision (1 when added, +1 per replacement). */
export const lineEtag = (revision: number): string => `"${revision}"`;

/** The revision of a line just added (the ETag POST /v1/carts answers with). */
export const ADDED_REVISION = 1;

/**
 * Whether `If-Match` lets a change of a line at `revision` through: no header, `*`, or a
 * list naming the revision (`"2"`, `W/"2"`, `2`). Anything else names another state.
 */
export function lineIfMatchAccepts(header: string | undefined, revision: number): boolean {
  return ifMatchNames(header, String(revision));
}

/** 409, as for a model's stale If-Match: the line changed since the caller read it. */
export const staleLine = (revision: number) =>
  ApiError.conflict('The line has changed since you read it', [
    {
      code: 'stale_line',
      message: `If-Match does not name the line's current ETag ${lineEtag(revision)}`,
      path: 'If-Match',
    },
  ]);
