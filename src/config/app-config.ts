import { resolve } from 'node:path';
import { readAuthConfig, type AuthConfig } from './auth.config.js';
import { readEngineConfig, type EngineConfig } from './engine.config.js';
import { EnvReader } from './env-reader.js';
import { readFeaturesConfig, type FeaturesConfig } from './features.config.js';
import { readHttpConfig, type HttpConfig } from './http.config.js';
import { readLoggingConfig, type LoggingConfig } from './logging.config.js';
import { readStorageConfig, type StorageConfig } from './storage.config.js';
import { readTelemetryConfig, type TelemetryConfig } from './telemetry.config.js';

/** What the groups read from: the environment's name, and the directory of local data. */
interface ProcessConfig {
  nodeEnv: string;
  dataDir: string;
}

/** Every setting: AppConfig's fields, each declared and documented in its group's file. */
export type AppSettings = ProcessConfig &
  HttpConfig &
  StorageConfig &
  AuthConfig &
  FeaturesConfig &
  EngineConfig &
  LoggingConfig &
  TelemetryConfig;

/**
 * A base whose instances carry every setting as a readonly field of their own: the groups
 * declare the fields once, and code keeps reading them flat (`config.port`, `config.jwt`).
 */
const Settings = class {
  constructor(settings: AppSettings) {
    Object.assign(this, settings);
  }
} as new (settings: AppSettings) => Readonly<AppSettings>;

/**
 * Everything the service reads from its environment, parsed and checked once at
 * start-up: a bad value stops the process with a message instead of failing later.
 * Each group reads its own variables (`*.config.ts` beside this file).
 */
export class AppConfig extends Settings {
  constructor(env: NodeJS.ProcessEnv = process.env) {
    super(readSettings(env));
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }
}

/** Reads every group, then refuses the environment with all its problems at once. */
function readSettings(env: NodeJS.ProcessEnv): AppSettings {
  const read = new EnvReader(env);
  const nodeEnv = env.NODE_ENV ?? 'development';
  const dataDir = resolve(env.DATA_DIR ?? './data');
  const settings: AppSettings = {
    nodeEnv,
    dataDir,
    ...readHttpConfig(read),
    ...readStorageConfig(read, dataDir),
    ...readAuthConfig(read, { dataDir, isProduction: nodeEnv === 'production' }),
    ...readFeaturesConfig(read),
    ...readEngineConfig(read),
    ...readLoggingConfig(read),
    ...readTelemetryConfig(read),
  };
  read.throwIfInvalid();
  return settings;
}
