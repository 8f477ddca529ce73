import { createServer, type Server } from 'node:http';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from './metrics.service.js';

/**
 * With METRICS_PORT, GET /metrics is served by a bare HTTP server on that port, and the
 * main port answers 404 for it: a NetworkPolicy works by port, not by path, so only a
 * port of its own lets Kubernetes keep the metrics to the monitoring namespace. Started by
 * main.ts only: the CLI boots the same application inside a running pod and must not
 * compete for the port.
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server: Server | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  async start(): Promise<void> {
    const port = this.config.metricsPort;
    if (port === null || !this.config.metricsEnabled) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
        return;
      }
      this.metrics.exposition().then(
        (text) =>
          res
            .writeHead(200, {
              'Content-Type': this.metrics.contentType,
              'Cache-Control': 'no-store',
            })
            .end(text),
        (error: unknown) => {
          this.logger.error(`Metrics failed: ${(error as Error).message}`);
          res.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => resolve());
    });
    this.server = server;
    this.logger.log(`Metrics on port ${port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
