import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A verified organization's change of its payout account (docs/going-live.md "Changing the payout
 * account"): the owner asks, an operator approves (the account is replaced and the row removed) or
 * refuses (the row stays `rejected`, for the owner to read, until the next request). One per
 * organization: a new request replaces the one waiting. Payouts go to the approved account meanwhile.
 */
export class PayoutAccountChanges1796500000000 implements MigrationInterface {
  name = 'PayoutAccountChanges1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payout_account_changes (
        organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        bank text NOT NULL CHECK (bank ~ '^[A-Z][A-Z0-9_]{1,31}$'),
        holder_name text NOT NULL CHECK (length(holder_name) BETWEEN 1 AND 200),
        iban text NOT NULL CHECK (iban ~ '^MR[0-9]{25}$'),
        status text NOT NULL CHECK (status IN ('pending', 'rejected')),
        requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
        requested_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        CONSTRAINT payout_account_changes_decided CHECK ((status = 'pending') = (decided_at IS NULL))
      )
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payout_account_changes`);
  }
}
