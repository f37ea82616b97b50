import { Foundation1763776800000 } from './1763776800000-Foundation';
import { Webhooks1763777000000 } from './1763777000000-Webhooks';

/** Every migration, in order. Listed explicitly so the app, the CLI, the tests and the TypeORM CLI run the same set. */
export const migrations = [Foundation1763776800000, Webhooks1763777000000];
