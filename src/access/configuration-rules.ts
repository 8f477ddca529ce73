import { ApiError } from '../common/errors/api-error.js';
import type { Principal } from '../principal/principal.js';
import type { ConfigurableModel, ConfigurationFacts } from './access.repository.js';
import { companyFactOf, companyVisibility, type CompanyFact } from './company-visibility.js';

/**
 * Whether the caller may configure a model for a company, decided on facts already read:
 * AccessService.requireConfigurable reads them in one query, and a hot path may read them
 * beside its own row (PUT of a line; docs/adr/0106) and ask the same decision.
 */

/**
 * The company fact a read of configuration facts must select for this caller when it
 * finds the company as it goes (a stored line's, read with its facts in one query: PUT
 * of a line); null: none (an intent token, decided by its company id).
 */
export function configurationFact(principal: Principal): CompanyFact | null {
  return companyFactOf(principal);
}

/**
 * requireConfigurable's decision on facts already read (with `configurationFact`'s
 * company fact, for `companyId`), e.g. beside the line they are about; null: none read.
 * Every failure is the same 403, so that nothing is learned about models the caller may
 * not use.
 */
export function requireConfigurableOn(
  principal: Principal,
  companyId: number,
  facts: ConfigurationFacts | null,
): ConfigurableModel {
  const rule = companyVisibility(principal, companyId);
  const visible = typeof rule === 'boolean' ? rule : facts?.companyVisible === true;
  if (!visible || !facts?.model || !facts.linked) {
    throw ApiError.forbidden('The company or the model is not accessible', [
      { code: 'not_accessible', message: 'You may not configure this model for this company' },
    ]);
  }
  return facts.model;
}
