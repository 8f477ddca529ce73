import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from '../data-source-options.js';
import { runMigrationsLocked } from '../database/migration-runner.js';

/**
 * The app's own data source (same entities, migrations and naming), with pending
 * migrations applied first under the same lock as the service's start-up, so that a
 * command works on a fresh database.
 */
async function openAndMigrate(
  config: AppConfig,
): Promise<{ dataSource: DataSource; applied: string[] }> {
  const dataSource = new DataSource({
    ...buildDataSourceOptions(config.database),
    // The migration log lines would mix with the command's output; `migrate` prints its own.
    logging: ['warn'],
  });
  await dataSource.initialize();
  try {
    return { dataSource, applied: await runMigrationsLocked(dataSource) };
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/** Runs `use` on the app's data source, then closes it. */
export async function withDatabase<T>(
  config: AppConfig,
  use: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  const { dataSource } = await openAndMigrate(config);
  try {
    return await use(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Applies pending migrations and names each one applied. */
export async function migrate(config: AppConfig): Promise<string[]> {
  const { dataSource, applied } = await openAndMigrate(config);
  await dataSource.destroy();
  return applied;
}
