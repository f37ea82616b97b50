import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The owners' applications to go live (docs/going-live.md), one row per submission (a corrected
 * application is a new row), and their two documents. The representative's ID number and the
 * documents are stored sealed (AES-256-GCM) with the id of the key that sealed them; the key
 * itself is never in the database.
 */
export class GoLiveApplications1763778100000 implements MigrationInterface {
  name = 'GoLiveApplications1763778100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE verification_applications (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        submitted_by uuid REFERENCES users(id) ON DELETE SET NULL,
        legal_name text NOT NULL,
        trade_name text NOT NULL,
        legal_form text NOT NULL,
        rccm text NOT NULL,
        nif text NOT NULL,
        address text NOT NULL,
        representative_name text NOT NULL,
        representative_phone text NOT NULL CHECK (representative_phone ~ '^[234][0-9]{7}$'),
        representative_id_key text NOT NULL,
        representative_id_sealed bytea NOT NULL,
        payout_bank text NOT NULL,
        payout_holder text NOT NULL,
        payout_iban text NOT NULL CHECK (payout_iban ~ '^MR[0-9]{25}$'),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX verification_applications_organization_idx
        ON verification_applications (organization_id, created_at DESC, id DESC);

      CREATE TABLE verification_documents (
        application_id uuid NOT NULL REFERENCES verification_applications(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('rccm_extract', 'representative_id')),
        content_type text NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
        size integer NOT NULL CHECK (size BETWEEN 1 AND 5242880),
        key_id text NOT NULL,
        sealed bytea NOT NULL,
        PRIMARY KEY (application_id, kind)
      );

      CREATE INDEX organizations_verification_queue_idx ON organizations (verification_submitted_at, id)
        WHERE verification_status = 'submitted';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX organizations_verification_queue_idx;
      DROP TABLE verification_documents, verification_applications;
    `);
  }
}
