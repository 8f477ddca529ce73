/**
 * The variants both telemetry benchmarks run (telemetry.bench.mjs, telemetry-profile.mjs):
 * each one's environment beyond the fixture's, and `name@<checkout>` for another build.
 */
import { resolve } from 'node:path';

/** Each variant's environment beyond the fixture's; `sink` is the OTLP endpoint's URL. */
export const VARIANTS = {
  off: { label: 'metrics off', env: () => ({ METRICS_ENABLED: 'false' }) },
  metrics: { label: 'metrics on', env: () => ({}) },
  'metrics-again': { label: 'metrics on, again (A/A)', env: () => ({}) },
  tracing: { label: 'tracing 10 %', env: (sink) => tracingEnv(sink, '0.1') },
  'tracing-all': { label: 'tracing 100 %', env: (sink) => tracingEnv(sink, '1') },
  // The SDK started, nothing ever sampled: what its presence alone costs.
  'tracing-none': { label: 'tracing 0 %', env: (sink) => tracingEnv(sink, '0') },
};

function tracingEnv(sink, ratio) {
  return {
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: sink,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: ratio,
  };
}

/** `name` or `name@<checkout>`: the variant's settings and the build it runs (`root` else). */
export function variantOf(spec, root) {
  const [name, checkout] = spec.split('@');
  const variant = VARIANTS[name];
  if (!variant) throw new Error(`unknown variant ${name} (${Object.keys(VARIANTS).join(', ')})`);
  return {
    spec,
    name,
    label: checkout ? `${variant.label} @${checkout}` : variant.label,
    env: variant.env,
    root: checkout ? resolve(checkout) : root,
  };
}
