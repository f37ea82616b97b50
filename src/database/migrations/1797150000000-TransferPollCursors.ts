import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where polling of each bank gateway's incoming transfers stands (docs/bank-gateway.md "Incoming
 * transfers"): the gateway's opaque cursor, and the lease of the instance polling it now
 * (`claimed_by` until `claimed_until`), so two instances never both move one cursor: only the
 * holder of the lease advances it, and a lease left by a dead instance runs out.
 */
export class TransferPollCursors1797150000000 implements MigrationInterface {
  name = 'TransferPollCursors1797150000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE transfer_poll_cursors (
        gateway text PRIMARY KEY CHECK (length(gateway) BETWEEN 1 AND 50),
        cursor text CHECK (length(cursor) <= 200),
        claimed_by uuid,
        claimed_until timestamptz,
        polled_at timestamptz,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE transfer_poll_cursors`);
  }
}
