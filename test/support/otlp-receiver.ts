import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it (the fields the tests read). */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  scope: string;
  attributes: Record<string, unknown>;
  /** The attributes of the resource that exported it (service.name…). */
  resource: Record<string, unknown>;
}

type KeyValues = { key: string; value: Record<string, unknown> }[];

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValues };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        attributes?: KeyValues;
      }[];
    }[];
  }[];
}

/**
 * A local OTLP/HTTP receiver for the JSON protocol (OTEL_EXPORTER_OTLP_PROTOCOL=http/json):
 * it accepts POST /v1/traces and keeps every span, as a collector would receive them.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | null = null;

  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces')
          this.keep(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Waits (polling) until a span passes `matches`; the spans received so far, else throws. */
  async waitFor(matches: (span: ReceivedSpan) => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.spans.some(matches)) {
      if (Date.now() > deadline)
        throw new Error(`no such span among ${this.spans.map((span) => span.name).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The chain of parents of `span` among the received spans, nearest first. */
  ancestors(span: ReceivedSpan): ReceivedSpan[] {
    const chain: ReceivedSpan[] = [];
    let current: ReceivedSpan | undefined = span;
    while (current?.parentSpanId) {
      const parentId: string = current.parentSpanId;
      current = this.spans.find((candidate) => candidate.spanId === parentId);
      if (current) chain.push(current);
    }
    return chain;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private keep(request: ExportRequest): void {
    for (const resource of request.resourceSpans ?? [])
      for (const scoped of resource.scopeSpans ?? [])
        for (const span of scoped.spans ?? [])
          this.spans.push({
            name: span.name,
            traceId: span.traceId,
            spanId: span.spanId,
            ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
            scope: scoped.scope?.name ?? '',
            attributes: plain(span.attributes),
            resource: plain(resource.resource?.attributes),
          });
  }
}

/** OTLP's typed key-values as plain ones (`{stringValue: 'x'}` → `'x'`). */
function plain(attributes: KeyValues = []): Record<string, unknown> {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));
}
