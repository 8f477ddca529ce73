import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';

/**
 * The app's own data source (same entities, migrations and naming), with pending
 * migrations applied first, as the service does at start-up: a command run against a
 * fresh database works. The caller destroys it.
 */
export async function openDatabase(config: AppConfig): Promise<DataSource> {
  const dataSource = new DataSource({
    ...buildDataSourceOptions(config.database),
    // The migration log lines would mix with the command's output; `migrate` prints its own.
    logging: ['warn'],
  });
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/** Applies pending migrations and names each one applied. */
export async function migrate(config: AppConfig): Promise<string[]> {
  const dataSource = new DataSource({
    ...buildDataSourceOptions(config.database),
    logging: ['warn'],
  });
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
