import type { EnvReader } from './env-reader.js';

/** What the pino logger writes (src/logging). */
export interface LoggingConfig {
  logLevel: 'error' | 'warn' | 'log' | 'debug';
  logFormat: 'json' | 'pretty';
}

export function readLoggingConfig(read: EnvReader): LoggingConfig {
  return {
    logLevel: read.oneOf('LOG_LEVEL', ['error', 'warn', 'log', 'debug'] as const, 'log'),
    logFormat: read.oneOf('LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
  };
}
