import type { LoggerService } from '@nestjs/common';
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';
import { currentLogContext } from './request-context.js';

/** The root pino logger of the app; tests provide one that writes to memory. */
export abstract class AppLogger {
  abstract readonly pino: Logger;
}

const LEVELS = { error: 'error', warn: 'warn', log: 'info', debug: 'debug' } as const;

/**
 * Never logged, whatever object a log call is given: credentials and secrets. Bodies
 * and headers are not logged at all; this is the net under that rule.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...[
    'password',
    'current_password',
    'token',
    'access_token',
    'refresh_token',
    'device_token',
    'secret',
  ].flatMap((key) => [key, `*.${key}`]),
];

/**
 * JSON lines on stdout (or `destination`), one object per line with `time` (ISO),
 * `level` (a name), `msg`, and the request id and user id of the request being served.
 * LOG_FORMAT=pretty renders them for humans through pino-pretty (a dev dependency).
 */
export function createAppLogger(config: AppConfig, destination?: DestinationStream): Logger {
  const options = {
    level: LEVELS[config.logLevel],
    base: undefined,
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: currentLogContext,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (destination) return pino(options, destination);
  if (config.logFormat === 'pretty' && prettyAvailable()) {
    return pino({
      ...options,
      formatters: undefined,
      transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } },
    });
  }
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

/** pino-pretty is a dev dependency: production images have JSON only. */
function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

const NEST_WIRING = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's own messages (start-up, errors through `new Logger(context)`) as pino lines. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest calls error(message, stack?, context?). The stack goes to the log, never to a client. */
  error(message: unknown, ...params: unknown[]): void {
    const context = params.length > 0 ? params.pop() : undefined;
    const stack = params.find((param) => typeof param === 'string');
    const fields = { context, ...(stack ? { err: { stack } } : {}) };
    this.logger.error(fields, text(message));
  }

  private write(
    level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    params: unknown[],
  ): void {
    const context = typeof params.at(-1) === 'string' ? params.at(-1) : undefined;
    // Nest's wiring report (one line per module and route) is for debugging only.
    const quiet = level === 'info' && NEST_WIRING.has(String(context));
    this.logger[quiet ? 'debug' : level]({ context }, text(message));
  }
}

function text(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message instanceof Error) return `${message.name}: ${message.message}`;
  return JSON.stringify(message);
}
