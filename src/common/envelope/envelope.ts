import type { Problem } from '../../engine/index.js';

export type Links = Partial<Record<'self' | 'first' | 'prev' | 'next' | 'last', string>>;

/** The body of every response (docs/api.md, "The envelope"). */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
  links: Links;
  errors: Problem[];
}

/** A handler may return this to set the envelope's message along with the data. */
export class Reply<T> {
  constructor(
    readonly data: T,
    readonly message?: string,
  ) {}
}

/** Where a page stands in its list: what the interceptor makes the `links` of. */
abstract class Paging {
  constructor(
    readonly page: number,
    readonly perPage: number,
    readonly total: number,
  ) {}

  /** The last page, 1 for an empty list (its links still name one page). */
  get lastPage(): number {
    return Math.max(1, Math.ceil(this.total / this.perPage));
  }
}

/** One page of a list; the interceptor turns it into `data` + `links`. */
export class Page<T> extends Paging {
  constructor(
    readonly items: T[],
    page: number,
    perPage: number,
    total: number,
  ) {
    super(page, perPage, total);
  }
}

/**
 * An object with one paged list inside (a cart and one page of its lines): `data` is the
 * object, `links` as for a Page.
 */
export class PagedObject<T> extends Paging {
  constructor(
    readonly data: T,
    page: number,
    perPage: number,
    total: number,
  ) {
    super(page, perPage, total);
  }
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable entity',
  423: 'Locked',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status < 400 ? 'OK' : 'Error');
}

/**
 * A PagedObject whose one list (`data[listKey]`) is a stream of finished JSON elements
 * (a cart page's stored lines, each inflated as it is sent: 50 lines of 5,000 questions
 * are ~215 MB, never held whole). The interceptor writes the envelope around it; nothing
 * in the stream runs the engine.
 */
export class StreamedPage<T extends object> extends PagedObject<T> {
  constructor(
    data: T,
    readonly listKey: string,
    /** Each element's JSON bytes, in pieces. */
    readonly elements: AsyncIterable<readonly Buffer[]>,
    page: number,
    perPage: number,
    total: number,
  ) {
    super(data, page, perPage, total);
  }
}
