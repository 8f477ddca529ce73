import type { Links } from '../envelope/envelope.js';

/** Relative links for a page of a list, keeping the request's other query parameters. */
export function pageLinks(
  originalUrl: string,
  page: number,
  perPage: number,
  lastPage: number,
): Links {
  const url = new URL(originalUrl, 'http://local');
  const at = (n: number): string => {
    url.searchParams.set('page', String(n));
    url.searchParams.set('per_page', String(perPage));
    return `${url.pathname}?${url.searchParams.toString()}`;
  };
  const links: Links = { self: at(page), first: at(1), last: at(lastPage) };
  if (page > 1) links.prev = at(Math.min(page - 1, lastPage));
  if (page < lastPage) links.next = at(page + 1);
  return links;
}
