import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ShutdownState } from './shutdown-state.js';

/**
 * While draining, an answer on a kept-alive connection closes it, so that the server's
 * close completes once the requests already received are answered.
 */
export function closeConnectionsWhileDraining(state: ShutdownState): RequestHandler {
  return (_req, res, next) => {
    if (state.draining) res.setHeader('Connection', 'close');
    next();
  };
}

export interface ShutdownTiming {
  /** SHUTDOWN_DELAY: not ready, still accepting and serving. */
  delayMs: number;
  /** SHUTDOWN_TIMEOUT: the longest wait for requests already received. */
  timeoutMs: number;
}

/**
 * SIGTERM / SIGINT: readiness answers 503 at once; for `delayMs` the server still accepts
 * and serves (load balancers stop sending meanwhile, and connections the kernel already
 * accepted are read instead of reset); then it stops accepting connections and finishes
 * every request it already received (at most `timeoutMs`, then the remaining connections
 * are cut), the app closes the database and Redis (Nest shutdown hooks), and the process
 * exits 0. Used instead of enableShutdownHooks, which closes the app before requests
 * finish and re-raises the signal (exit 143).
 */
export function handleTermination(
  app: INestApplication,
  logger: Logger,
  timing: ShutdownTiming,
): void {
  let started = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (started) return;
    started = true;
    void shutDown(app, logger, timing, signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.fatal({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

async function shutDown(
  app: INestApplication,
  logger: Logger,
  { delayMs, timeoutMs }: ShutdownTiming,
  signal: NodeJS.Signals,
): Promise<void> {
  const started = Date.now();
  app.get(ShutdownState).startDraining();
  const server = app.getHttpServer() as Server;
  if (delayMs > 0) {
    logger.info({ signal, delay_ms: delayMs }, 'Shutting down: not ready, still serving');
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  logger.info({ signal, timeout_ms: timeoutMs }, 'Shutting down: draining requests');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), timeoutMs);
  });
  const cut = await Promise.race([closed.then(() => false), timedOut]);
  clearTimeout(timer);
  if (cut) {
    logger.warn({ timeout_ms: timeoutMs }, 'Shutdown timeout: closing the remaining connections');
    server.closeAllConnections();
  }
  await app.close();
  logger.info({ duration_ms: Date.now() - started }, 'Shut down');
}
