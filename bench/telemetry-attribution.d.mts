/** Types of bench/telemetry-attribution.mjs for the tests. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Tally {
  idle: number;
  gc: number;
  program: number;
  tracing: number;
  metrics: number;
  other: number;
  selfTracing: number;
  selfMetrics: number;
}

export interface HeapTotals {
  allocated: number;
  pause: number;
  majors: number;
}

export function ownerOf(url: string): 'tracing' | 'metrics' | 'other';
export function emptyTally(): Tally;
export function tallyProfile(
  profile: CpuProfile,
  from: number,
  to: number,
  top?: Map<string, number>,
): Tally;
export function tallyProfiles(
  dir: string,
  from: number,
  to: number,
  top?: Map<string, number>,
): { main: Tally; workers: Tally };
export function marks(text: string): number;
export function heapBetweenMarks(
  text: string,
  from: number,
): { main: HeapTotals; workers: HeapTotals };
