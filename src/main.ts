import { existsSync } from 'node:fs';
import { pino } from 'pino';
import { startTracing } from './tracing/start-tracing.js';

// A .env file beside the process fills in what the environment does not set (OTEL_* too).
if (existsSync('.env')) process.loadEnvFile('.env');
// Tracing hooks the modules it instruments (pg, ioredis) as they load, so it
// starts before anything else is imported: the service comes in through a dynamic import.
await startTracing().catch((error: unknown) => {
  // Traces are worth less than the service: it starts without them, and says so.
  const message = error instanceof Error ? error.message : String(error);
  pino({
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  }).warn({ context: 'Tracing' }, `Tracing did not start: ${message}`);
});
await import('./server.js');
