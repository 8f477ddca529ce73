/** Types of fault-models.mjs, for the TypeScript tests that use it. */
export function chainedModel(code: string, count: number): Record<string, unknown>;
export function sizeModel(code: string, more?: Record<string, unknown>): Record<string, unknown>;
export function pricedSizeModel(code: string, name?: string): Record<string, unknown>;
