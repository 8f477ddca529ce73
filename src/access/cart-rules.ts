import type { Problem } from '../common/errors/api-error.js';
import type { Principal } from '../principal/principal.js';

/**
 * The cart rules: each decides on the caller and the cart row alone, with no fact to read,
 * so they are plain functions (AccessService exposes them; carts ask it, as for every rule).
 */

/** What the cart rules need of a cart row. */
export interface OwnedCart {
  userId: number;
  companyId: number | null;
}

/** Which of a user's carts a caller sees: all of them, or those recorded with one company. */
export interface CartScope {
  userId: number;
  companyId?: number;
}

/**
 * Carts are personal: only their user sees them, admins included. An intent token
 * acts as its user but sees only the carts recorded with its company.
 */
export function cartScope(principal: Principal): CartScope {
  if (principal.via !== 'intent') return { userId: principal.userId };
  // Intent tokens always carry a company; ids start at 1, so 0 matches nothing.
  return { userId: principal.userId, companyId: principal.companyId ?? 0 };
}

export function canSeeCart(principal: Principal, cart: OwnedCart): boolean {
  if (cart.userId !== principal.userId) return false;
  return principal.via !== 'intent' || cart.companyId === principal.companyId;
}

/** The company a cart made by this caller is recorded with (intent tokens only). */
export function cartCompanyOf(principal: Principal): number | null {
  return principal.via === 'intent' ? principal.companyId : null;
}

/** A cart recorded with a company holds only that company's lines (empty when it may). */
export function cartCompanyProblems(cart: OwnedCart, companyId: number): Problem[] {
  if (cart.companyId === null || cart.companyId === companyId) return [];
  return [
    {
      code: 'cart_company_mismatch',
      message: `This cart holds lines of company ${cart.companyId} only`,
      path: 'company_id',
    },
  ];
}
