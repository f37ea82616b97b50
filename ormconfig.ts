import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/database/data-source';

/**
 * For the TypeORM CLI (`npx typeorm migration:run -d dist/ormconfig.js`, `migration:generate`).
 * Needs DATABASE_URL; the service itself runs migrations at start-up, embedded database included.
 */
const url = process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to use the TypeORM CLI');
// Migrations need a session of their own: the server itself when DATABASE_URL is a pooler.
export default new DataSource(dataSourceOptions(url));
