import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Going live (docs/going-live.md): an organization's verification, its operator-set terms (fee
 * rate, platform, payout hold), its payout account, and the audit log of operators' actions.
 *
 * Existing organizations: those that already completed a Production payment were live before
 * verification existed and stay so (`verified`); the others start `unverified`.
 */
export class GoingLive1763778000000 implements MigrationInterface {
  name = 'GoingLive1763778000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE organizations
        ADD COLUMN verification_status text NOT NULL DEFAULT 'unverified'
          CHECK (verification_status IN ('unverified', 'submitted', 'verified', 'rejected')),
        ADD COLUMN verification_submitted_at timestamptz,
        ADD COLUMN verification_decided_at timestamptz,
        ADD COLUMN verification_reason text CHECK (length(verification_reason) BETWEEN 1 AND 1000),
        ADD COLUMN platform boolean NOT NULL DEFAULT false,
        ADD COLUMN fee_bps integer CHECK (fee_bps BETWEEN 0 AND 10000),
        ADD COLUMN payouts_held boolean NOT NULL DEFAULT false,
        ADD CONSTRAINT organizations_rejection_has_reason
          CHECK ((verification_status = 'rejected') = (verification_reason IS NOT NULL));

      UPDATE organizations o SET verification_status = 'verified', verification_decided_at = now()
       WHERE EXISTS (SELECT 1 FROM payments p JOIN environments e ON e.id = p.environment_id
                      WHERE e.organization_id = o.id AND e.kind = 'production' AND p.status = 'completed');

      -- Where an organization's Production money goes: one account per organization, approved by
      -- an operator (or by org:create). The IBAN is kept whole for the payouts to come.
      CREATE TABLE payout_accounts (
        organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        bank text NOT NULL CHECK (bank ~ '^[A-Z][A-Z0-9_]{1,31}$'),
        holder_name text NOT NULL CHECK (length(holder_name) BETWEEN 1 AND 200),
        iban text NOT NULL CHECK (iban ~ '^MR[0-9]{25}$'),
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      -- Every operator action (the CLI's included): written once, never changed or removed.
      CREATE TABLE operator_audit_log (
        id uuid PRIMARY KEY,
        actor text NOT NULL CHECK (length(actor) BETWEEN 1 AND 320),
        operator_id uuid,
        action text NOT NULL,
        organization_id uuid,
        before jsonb,
        after jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX operator_audit_log_list_idx ON operator_audit_log (created_at DESC, id DESC);
      CREATE INDEX operator_audit_log_organization_idx ON operator_audit_log (organization_id, created_at DESC);

      CREATE FUNCTION operator_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'operator_audit_log is append-only: % refused', TG_OP;
      END $$;
      CREATE TRIGGER operator_audit_log_append_only BEFORE UPDATE OR DELETE ON operator_audit_log
        FOR EACH ROW EXECUTE FUNCTION operator_audit_log_append_only();
      CREATE TRIGGER operator_audit_log_no_truncate BEFORE TRUNCATE ON operator_audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION operator_audit_log_append_only();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE operator_audit_log, payout_accounts;
      DROP FUNCTION operator_audit_log_append_only();
      ALTER TABLE organizations DROP CONSTRAINT organizations_rejection_has_reason,
        DROP COLUMN verification_status, DROP COLUMN verification_submitted_at, DROP COLUMN verification_decided_at,
        DROP COLUMN verification_reason, DROP COLUMN platform, DROP COLUMN fee_bps, DROP COLUMN payouts_held;
    `);
  }
}
