/** Types of tools/featureide-to-dimacs.mjs for the TypeScript benchmark and tests. */
export function featureIdeToDimacs(xml: string): {
  text: string;
  variables: number;
  clauses: number;
};
