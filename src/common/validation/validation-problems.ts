import type { ValidationError } from 'class-validator';
import type { Problem } from '../../engine/index.js';

/** Flattens class-validator errors into envelope problems with dotted paths (`questions.width`). */
export function validationProblems(errors: ValidationError[], parent = ''): Problem[] {
  const problems: Problem[] = [];
  for (const error of errors) {
    const path = joinPath(parent, error.property);
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      problems.push({ code: constraintCode(constraint), message, path });
    }
    if (error.children?.length) problems.push(...validationProblems(error.children, path));
  }
  return problems;
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

function constraintCode(constraint: string): string {
  if (constraint === 'whitelistValidation') return 'unknown_field';
  return constraint.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}
