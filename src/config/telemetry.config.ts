import type { EnvReader } from './env-reader.js';

/** Metrics and traces (src/metrics, src/tracing; docs/OPERATIONS.md "Metrics", "Traces"). */
export interface TelemetryConfig {
  /**
   * /metrics and every metric fed on the request and engine paths (METRICS_ENABLED, on by
   * default). Off: /metrics answers 404 and nothing is counted; for measuring what they cost.
   */
  metricsEnabled: boolean;
  /** OpenTelemetry traces are exported (tracingEnabledIn: the standard OTEL_* variables). */
  tracingEnabled: boolean;
}

export function readTelemetryConfig(read: EnvReader): TelemetryConfig {
  return {
    metricsEnabled: read.bool('METRICS_ENABLED', true),
    tracingEnabled: tracingEnabledIn(read.env),
  };
}

/**
 * Traces are off unless an exporter is asked for: OTEL_TRACES_EXPORTER set to something
 * other than `none`, or an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). OTEL_SDK_DISABLED=true turns them off whatever else
 * is set. The SDK's own default exporter (`otlp` to localhost) would otherwise send every
 * instance's spans to a collector that is usually not there (docs/adr/0175).
 */
export function tracingEnabledIn(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (exporters.length > 0) return !exporters.includes('none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
