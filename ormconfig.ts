import { DataSource } from 'typeorm';
import { AppConfig } from './src/config/app-config.js';
import { buildDataSourceOptions } from './src/data-source-options.js';

/**
 * The data source for the TypeORM CLI (`npm run migration:run`), built from the same
 * options and environment as the app.
 */
export default new DataSource(buildDataSourceOptions(new AppConfig().database));
