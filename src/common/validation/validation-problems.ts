import type { ValidationError } from 'class-validator';
import type { Problem } from '../../engine/index.js';

/**
 * Flattens class-validator errors into envelope problems with dotted paths
 * (`questions.width`): one problem per field, the first check it failed, so that a missing
 * field is one `required` problem rather than `is_string`, `is_not_empty` and `max_length`.
 * Needs the pipe's `validationError.value` (the value is read here, never answered).
 */
export function validationProblems(errors: ValidationError[], parent = ''): Problem[] {
  const problems: Problem[] = [];
  for (const error of errors) {
    const path = joinPath(parent, error.property);
    const [first] = Object.entries(error.constraints ?? {});
    if (first) problems.push(problemOf(error, first, path));
    if (error.children?.length) problems.push(...validationProblems(error.children, path));
  }
  return problems;
}

function problemOf(
  error: ValidationError,
  [constraint, message]: [string, string],
  path: string,
): Problem {
  const missing =
    (error.value === undefined || error.value === null) && constraint !== 'whitelistValidation';
  if (missing) return { code: 'required', message: `${error.property} is required`, path };
  return { code: constraintCode(constraint), message, path };
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

function constraintCode(constraint: string): string {
  if (constraint === 'whitelistValidation') return 'unknown_field';
  return constraint.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}
