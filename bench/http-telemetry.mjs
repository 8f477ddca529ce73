/**
 * `npm run bench:http -- --telemetry` (issue 41): what metrics and traces cost a preview.
 * Three services of the same build, each on a database of its own, previewing the same
 * model with the same answers in alternation:
 *   - `metrics off`: METRICS_ENABLED=false, no tracing (nothing measured at all);
 *   - `metrics on`: the defaults (Prometheus metrics, no tracing);
 *   - `tracing 10 %`: metrics on, and OpenTelemetry traces sampled at 10 %
 *     (parentbased_traceidratio 0.1), exported over OTLP/HTTP protobuf (the SDK's default
 *     protocol) in batches to a sink in this process that accepts and drops them.
 *   - `metrics on, again`: a second service exactly like `metrics on`, the run's noise
 *     control: its ratio to `metrics on` is what two identical services differ by here.
 * Goals: metrics on ≤ 1.02× metrics off, tracing 10 % ≤ 1.05× metrics on (time per request,
 * same run); a control far from 1.00× says the run cannot judge a 2–5 % goal. The CPU ratio (all threads of the service, workers and their exporters too)
 * reads the same cost without the other load on the machine.
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import { benchTenant, uploadModel } from './service-fixture.mjs';
import { measure, row } from './http-measure.mjs';

/** An OTLP/HTTP endpoint that accepts every export and keeps nothing; its URL and stop. */
async function startSink() {
  let spansBytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk) => (spansBytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    received: () => spansBytes,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A preview of `size` for a new tenant of `base` (its own upload of the model). */
async function previewRequest(base, size) {
  const tenant = await benchTenant(base);
  const modelId = await uploadModel(base, tenant.token, tenant.supplier.id, size.model, size.yaml);
  return {
    method: 'POST',
    path: '/v1/carts/preview',
    headers: { Authorization: `Bearer ${tenant.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model_id: modelId,
      company_id: tenant.company.id,
      questions: size.answers ?? {},
    }),
  };
}

/**
 * The three services' previews in alternation; `startVariant(env)` starts a service of the
 * run's build with `env` added, on a database of its own.
 */
export async function benchTelemetry(at, name, size, startVariant) {
  const sink = await startSink();
  at.floors.push({ stop: sink.stop });
  const off = await startVariant({ METRICS_ENABLED: 'false' });
  at.floors.push(off);
  // Started like the other two (not the run's first service, which set up more before).
  const on = await startVariant({});
  at.floors.push(on);
  const traced = await startVariant({
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.1',
  });
  at.floors.push(traced);
  const again = await startVariant({});
  at.floors.push(again);
  const targets = [
    {
      name: 'metrics off',
      base: off.base,
      pid: off.child.pid,
      request: await previewRequest(off.base, size),
    },
    {
      name: 'metrics on',
      base: on.base,
      pid: on.child.pid,
      request: await previewRequest(on.base, size),
    },
    {
      name: 'tracing 10 %',
      base: traced.base,
      pid: traced.child.pid,
      request: await previewRequest(traced.base, size),
    },
    {
      name: 'metrics on, again',
      base: again.base,
      pid: again.child.pid,
      request: await previewRequest(again.base, size),
    },
  ];
  const [offStats, onStats, tracedStats, againStats] = await measure(targets);
  const scenario = `preview ${size.label ?? name}: telemetry`;
  row(at.database, scenario, 'metrics off', offStats);
  row(at.database, scenario, 'metrics on', onStats, offStats, 'time', '≤ 1.02× metrics off');
  row(at.database, scenario, 'tracing 10 %', tracedStats, onStats, 'time', '≤ 1.05× metrics on');
  row(at.database, scenario, 'metrics on, again', againStats, onStats, 'time', 'noise: ≈ 1.00×');
  if (sink.received() === 0) throw new Error('tracing 10 %: no span reached the sink');
}
