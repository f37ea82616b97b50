import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/database/data-source';

/**
 * For the TypeORM CLI (`npx typeorm migration:run -d dist/ormconfig.js`, `migration:generate`).
 * Needs DATABASE_URL; the service itself runs migrations at start-up, embedded database included.
 */
if (!process.env.DATABASE_URL) throw new Error('Set DATABASE_URL to use the TypeORM CLI');
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL));
