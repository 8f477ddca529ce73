import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { pino } from 'pino';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { AppConfig } from './config/app-config.js';
import { waitForDatabase } from './database/database-preflight.js';
import { handleTermination } from './shutdown/graceful-shutdown.js';
import { createAppLogger, NestPinoLogger } from './logging/app-logger.js';
import { MetricsServer } from './metrics/metrics-server.js';
import { listenAddress } from './logging/listen-address.js';

/** The service itself, imported by main.ts once tracing (if asked for) has started. */
async function bootstrap(): Promise<void> {
  // Fail fast on a bad environment, before anything connects.
  const config = new AppConfig();
  const logger = createAppLogger(config);
  if (!(await waitForDatabase(config, logger))) process.exit(1);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  configureApp(app);
  handleTermination(app, logger, {
    delayMs: config.shutdownDelayMs,
    timeoutMs: config.shutdownTimeoutMs,
  });
  // The metrics port listens before the API port: once the API answers (a probe, a test),
  // a scrape finds its port too.
  await app.init();
  await app.get(MetricsServer).start();
  await app.listen(config.port);
  const address = listenAddress(app.getHttpServer().address(), config.port);
  logger.info(
    { context: 'Bootstrap', port: config.port, address, database: config.database.type },
    `Listening on ${address} (database: ${config.database.type})`,
  );
}

bootstrap().catch((error: unknown) => {
  // Before (or without) the app's logger: still one JSON line, without a stack.
  const message = error instanceof Error ? error.message : String(error);
  // Text levels, like every other line (createAppLogger's formatter).
  pino({
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  }).fatal(`Start-up failed: ${message}`);
  process.exit(1);
});
