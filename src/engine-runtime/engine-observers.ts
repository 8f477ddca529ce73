import type { AppConfig } from '../config/app-config.js';
import type { EngineLane } from '../metrics/engine-metrics.js';
import type { MetricsService } from '../metrics/metrics.service.js';
import { recordQueueWait, recordTaskSpan } from '../tracing/task-trace.js';
import type { PoolObserver } from '../common/pool-observer.js';

export interface EngineObservers {
  /** The hooks of one engine pool; `depth` is its number of tasks waiting. */
  observer(lane: EngineLane, depth: () => number): PoolObserver | undefined;
  onQuarantine?: () => void;
}

/**
 * What watches the engine pools: the metrics (unless METRICS_ENABLED=false) and, with
 * tracing on, the spans of each traced task: its wait for a worker, and its run as the
 * worker timed it. With neither, no hook at all: the pools run as without observers.
 */
export function engineObservers(config: AppConfig, metrics: MetricsService): EngineObservers {
  const engine = config.metricsEnabled ? metrics.engine : null;
  const tracing = config.tracingEnabled;
  return {
    observer(lane, depth) {
      const counted = engine?.observer(lane, depth);
      if (!tracing) return counted;
      return {
        ...counted,
        started: (task, waitedMs) => {
          counted?.started?.(task, waitedMs);
          recordQueueWait(task, waitedMs, lane);
        },
        finished: (task, ranMs, ok, report) => {
          counted?.finished?.(task, ranMs, ok);
          recordTaskSpan(task, report, lane);
        },
      };
    },
    ...(engine ? { onQuarantine: () => engine.countQuarantine() } : {}),
  };
}
