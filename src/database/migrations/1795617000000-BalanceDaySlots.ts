import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `balance_days` spreads each environment's day over slots so that concurrent payments of one
 * environment do not queue on one row. The slot was a hash of the transaction's id modulo 8: with
 * 50 payments at once, transactions of different connections met on the same row, each waiting
 * for the other's commit and leaving PostgreSQL a hot row to re-check and prune. Measured on 50
 * clients inserting transactions of one environment and day: 364–422 µs of PostgreSQL CPU per
 * insert with 8 hashed slots, 103 µs with no trigger at all.
 *
 * The slot is now the connection's: `pg_backend_pid() % 16`. A connection commits one transaction
 * at a time, so its own transactions never wait for each other, and the pool's 20 connections (or
 * the pooler's server connections) meet only where their process ids agree modulo 16. A day has
 * at most 16 rows instead of 8: `GET /balance` reads that many per day of history, still a few
 * thousand rows for a year. Existing rows keep their slots (any slot sums the same).
 */
export class BalanceDaySlots1795617000000 implements MigrationInterface {
  name = 'BalanceDaySlots1795617000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION balance_transactions_add_to_day() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO balance_days (environment_id, day, slot, net)
        VALUES (NEW.environment_id, (NEW.available_on AT TIME ZONE 'UTC')::date, pg_backend_pid() % 16, NEW.net)
        ON CONFLICT (environment_id, day, slot) DO UPDATE SET net = balance_days.net + EXCLUDED.net;
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION balance_transactions_add_to_day() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO balance_days (environment_id, day, slot, net)
        VALUES (NEW.environment_id, (NEW.available_on AT TIME ZONE 'UTC')::date,
                abs(hashtext(NEW.id::text)) % 8, NEW.net)
        ON CONFLICT (environment_id, day, slot) DO UPDATE SET net = balance_days.net + EXCLUDED.net;
        RETURN NULL;
      END $$`);
  }
}
