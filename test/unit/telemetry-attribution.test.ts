import { describe, expect, it } from 'vitest';
import {
  type CpuProfile,
  heapBetweenMarks,
  marks,
  ownerOf,
  tallyProfile,
} from '../../bench/telemetry-attribution.mjs';
import { categoryOf } from '../../bench/telemetry-perf.mjs';

const APP = 'file:///srv/dist/src/carts/carts.service.js';
const SDK = 'file:///srv/node_modules/@opentelemetry/sdk-trace/build/esm/Tracer.mjs';
const PROM = 'file:///srv/node_modules/prom-client/lib/histogram.js';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 0 },
  children,
});

/**
 * The application calls the SDK, which calls Buffer (Node's) and calls the application back;
 * the application calls prom-client; and V8's pseudo-frames.
 */
const profile = (samples: number[], timeDeltas: number[]): CpuProfile => ({
  nodes: [
    frame(1, '(root)', '', [2, 7, 8, 9]),
    frame(2, 'preview', APP, [3, 6]),
    frame(3, 'startSpan', SDK, [4, 5]),
    frame(4, 'write', 'node:buffer'),
    frame(5, 'callback', APP),
    frame(6, 'observe', PROM),
    frame(7, '(idle)', ''),
    frame(8, '(garbage collector)', ''),
    frame(9, '(program)', ''),
  ],
  startTime: 1_000,
  samples,
  timeDeltas,
});

describe('telemetry attribution by profile (bench/telemetry-profile.mjs)', () => {
  it('tells telemetry code by where it was loaded from', () => {
    expect(ownerOf(SDK)).toBe('tracing');
    expect(ownerOf('file:///srv/dist/src/tracing/server-spans.js')).toBe('tracing');
    expect(ownerOf('file:///srv/node_modules/protobufjs/src/writer.js')).toBe('tracing');
    expect(ownerOf(PROM)).toBe('metrics');
    expect(ownerOf('file:///srv/dist/src/metrics/http-metrics.middleware.js')).toBe('metrics');
    expect(ownerOf('file:///srv/dist/src/engine-runtime/engine-observers.js')).toBe('metrics');
    expect(ownerOf(APP)).toBe('other');
    expect(ownerOf('file:///srv/dist/src/engine-runtime/worker-pool.js')).toBe('other');
  });

  it("gives Node's internals to their caller and a wrapper's callback to the application", () => {
    const tally = tallyProfile(
      profile([3, 4, 5, 6, 2, 7, 8, 9], [10, 20, 30, 40, 50, 60, 70, 80]),
      0,
      1e9,
    );
    expect(tally).toEqual({
      tracing: 10 + 20,
      selfTracing: 10,
      metrics: 40,
      selfMetrics: 40,
      other: 30 + 50,
      idle: 60,
      gc: 70,
      program: 80,
    });
  });

  it('counts only the samples inside the window', () => {
    // Sample times: 1010, 1020, 1030, 1040 (startTime plus the deltas so far).
    const tally = tallyProfile(profile([3, 3, 6, 6], [10, 10, 10, 10]), 1_015, 1_035);
    expect(tally.tracing).toBe(10);
    expect(tally.metrics).toBe(10);
  });

  it('adds up what the heap allocated between two marked collections, per thread', () => {
    const MB = 2 ** 20;
    const line = (isolate: string, before: number, after: number, pause: number, why: string) =>
      `[42:${isolate}]   100 ms: Scavenge ${before} (40.0) -> ${after} (41.0) MB, pooled: 0 MB, ${pause} / 0.00 ms  (average mu = 1.000, current mu = 1.000) ${why}; `;
    const text = [
      line('0xaaa', 30, 20, 1, 'allocation failure'),
      line('0xbbb', 50, 10, 2, 'allocation failure'),
      line('0xaaa', 25, 21, 0.5, 'testing'), // mark 0: the window starts
      '{"level":"info","msg":"a log line between"}',
      line('0xaaa', 40, 22, 1.5, 'allocation failure'),
      line('0xbbb', 45, 12, 2.5, 'allocation failure'),
      `[42:0xaaa]   110 ms: Mark-Compact 30.0 (40.0) -> 23.0 (41.0) MB, pooled: 0 MB, 4.00 / 0.00 ms  (average mu = 0.9, current mu = 0.9) allocation failure; `,
      line('0xaaa', 24, 23.5, 0.5, 'testing'), // mark 1: the window ends
      line('0xaaa', 90, 20, 9, 'allocation failure'),
    ].join('\n');
    expect(marks(text)).toBe(2);
    const heap = heapBetweenMarks(text, 0);
    // Main: (40 − 21) + (30 − 22) + (24 − 23): up to the closing mark's size before.
    expect(heap.main.allocated).toBeCloseTo((19 + 8 + 1) * MB);
    expect(heap.main.pause).toBeCloseTo(1.5 + 4);
    expect(heap.main.majors).toBe(1);
    // The worker's one collection, from its previous size after (10).
    expect(heap.workers.allocated).toBeCloseTo(35 * MB);
    expect(heap.workers.pause).toBeCloseTo(2.5);
  });

  it("reads perf's stacks (leaf first) as the profile's: the nearest JS frame outside Node's", () => {
    const sdk =
      'JS:*startSpan file:///srv/node_modules/@opentelemetry/sdk-trace/build/esm/Tracer.mjs:40:14';
    const app = 'JS:^preview file:///srv/dist/src/carts/carts.service.js:12:3';
    const emit = "JS:+'emit node:events:507:28";
    expect(
      categoryOf(['Builtins_StringAdd_CheckNone', 'JS:~write node:buffer:1:1', sdk, app]),
    ).toEqual({
      category: 'tracing',
      frame: sdk,
    });
    expect(categoryOf([app, emit, sdk]).category).toBe('other');
    expect(
      categoryOf(['v8::internal::Scavenger::Process', 'Builtins_ArrayPush', sdk]).category,
    ).toBe('gc');
    expect(categoryOf(['epoll_wait', 'uv_run']).category).toBe('other');
  });
});
