import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dunning (docs/billing.md "Reminders, SMS and dunning"): the due date of the latest overdue
 * invoice a subscription was cancelled or paused for, written under the subscription's lock with
 * the change, so each overdue invoice dunns its subscription once.
 */
export class Dunning1795611106824 implements MigrationInterface {
  name = 'Dunning1795611106824';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions ADD COLUMN dunned_through timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE subscriptions DROP COLUMN dunned_through');
  }
}
