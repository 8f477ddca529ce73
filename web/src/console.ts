// The developer's side of a failure: the API's status, message and problem codes go to
// the console, which is where whoever embeds the element looks; the buyer reads plain
// words (problems.ts). A call refused before any answer (status 0) is, from a shop page,
// nearly always its origin missing from the service's CORS_ORIGINS: said so once.
import type { ApiFailure } from './api.js';

let corsHintShown = false;

export function reportFailure(failure: ApiFailure, baseUrl: string): void {
  if (failure.status !== 0) {
    const codes = failure.problems.map((p) => p.code).join(', ');
    console.warn(
      `product-configurator: ${failure.status} ${failure.message}${codes ? ` (${codes})` : ''}`,
      failure.problems,
    );
    return;
  }
  const origin = globalThis.location?.origin ?? '';
  const crossOrigin = origin !== '' && !baseUrl.startsWith(origin);
  if (!crossOrigin || corsHintShown) {
    console.error(`product-configurator: ${baseUrl} cannot be reached: ${failure.message}`);
    return;
  }
  corsHintShown = true;
  console.error(
    `product-configurator: the API at ${baseUrl} refused this page's origin (${origin}) or ` +
      `cannot be reached. Calls from another origin need it in the service's CORS_ORIGINS ` +
      `(e.g. CORS_ORIGINS=${origin}); see docs/OPERATIONS.md. (${failure.message})`,
  );
}
