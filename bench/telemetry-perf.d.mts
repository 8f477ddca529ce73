/** Types of bench/telemetry-perf.mjs for the tests. */
export const PERF_NODE_ARGS: string[];
export function categoryOf(stack: string[]): {
  category: 'gc' | 'tracing' | 'metrics' | 'other';
  frame?: string;
};
