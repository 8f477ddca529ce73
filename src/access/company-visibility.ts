import { isAdmin, type Principal } from '../principal/principal.js';

/** The fact that makes a company visible to a caller: it exists (admins), or membership. */
export type CompanyFact = 'companyExists' | 'member';

/**
 * The one rule of company visibility (docs/api.md, "The seed contract"), as a decision or as the
 * fact that decides: an intent token sees its own company only (its row references the
 * company and its strategy checked that the user may act for it: no query), an admin
 * every company that exists, anyone else the companies they are a member of (a
 * membership row implies the company exists: one fact is enough).
 */
export function companyVisibility(principal: Principal, companyId: number): boolean | CompanyFact {
  const fact = companyFactOf(principal);
  return fact ?? principal.companyId === companyId;
}

/**
 * The fact companyVisibility reads for this caller, whichever the company: null for an
 * intent token, whose rule compares ids. What a read that finds the company only as it
 * goes (a stored line's) selects beside it.
 */
export function companyFactOf(principal: Principal): CompanyFact | null {
  if (principal.via === 'intent') return null;
  return isAdmin(principal) ? 'companyExists' : 'member';
}
