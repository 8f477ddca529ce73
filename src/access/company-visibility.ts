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
  if (principal.via === 'intent') return principal.companyId === companyId;
  return isAdmin(principal) ? 'companyExists' : 'member';
}
