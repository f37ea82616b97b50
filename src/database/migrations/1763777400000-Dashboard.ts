import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The merchant dashboard: user roles, sessions, invitations, login attempts (counted here so that
 * every instance agrees), API keys that expire after a roll, and the indexes of the monitoring
 * search (docs/dashboard.md shows their plans over 1,000,000 payment requests).
 */
export class Dashboard1763777400000 implements MigrationInterface {
  name = 'Dashboard1763777400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- Existing users (the first user of each organization) become owners; new users say their role.
      ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'developer', 'viewer'));
      ALTER TABLE users ALTER COLUMN role DROP DEFAULT;
      ALTER TABLE users ADD COLUMN password_changed_at timestamptz;
      CREATE INDEX users_organization_idx ON users (organization_id, created_at);

      -- A rolled key keeps working until expires_at; the key look-up ignores it afterwards.
      ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

      -- Only the SHA-256 of the cookie's random value is stored: a leaked table opens no session.
      CREATE TABLE dashboard_sessions (
        id uuid PRIMARY KEY,
        token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        environment text NOT NULL DEFAULT 'sandbox' CHECK (environment IN ('sandbox', 'production')),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CHECK (expires_at > created_at)
      );
      CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id);
      CREATE INDEX dashboard_sessions_expiry_idx ON dashboard_sessions (expires_at);

      CREATE TABLE dashboard_invitations (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email text NOT NULL CHECK (email = lower(email)),
        role text NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
        token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
        invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        revoked_at timestamptz,
        CHECK (accepted_at IS NULL OR revoked_at IS NULL)
      );
      CREATE INDEX dashboard_invitations_organization_idx ON dashboard_invitations (organization_id, created_at DESC);

      -- Failed (and in-flight) sign-in attempts, per email and per client address.
      CREATE TABLE login_attempts (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        ip text NOT NULL,
        succeeded boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX login_attempts_email_idx ON login_attempts (email, created_at) WHERE NOT succeeded;
      CREATE INDEX login_attempts_ip_idx ON login_attempts (ip, created_at) WHERE NOT succeeded;
      CREATE INDEX login_attempts_created_idx ON login_attempts (created_at);

      -- Monitoring search: each filter walks an index in the list's order (created_at DESC, id DESC),
      -- so a page is found without sorting the environment's requests.
      CREATE INDEX payment_requests_phone_idx ON payment_requests (environment_id, phone_number, created_at DESC, id DESC)
        WHERE phone_number IS NOT NULL;
      CREATE INDEX payment_requests_status_idx ON payment_requests (environment_id, status, created_at DESC, id DESC);
      CREATE INDEX payment_requests_amount_idx ON payment_requests (environment_id, amount, created_at DESC, id DESC);
      CREATE INDEX payments_phone_idx ON payments (environment_id, phone_number, created_at DESC, id DESC);
      CREATE INDEX payments_status_idx ON payments (environment_id, status, created_at DESC, id DESC);

      -- The webhook deliveries of a payment request: its own events carry its id, those of its
      -- payments, checkout sessions and invoice carry it as paymentRequestId.
      CREATE INDEX events_subject_idx ON events (environment_id, (COALESCE(data->>'paymentRequestId', data->>'id')));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX events_subject_idx, payments_status_idx, payments_phone_idx, payment_requests_amount_idx,
        payment_requests_status_idx, payment_requests_phone_idx, users_organization_idx;
      DROP TABLE login_attempts, dashboard_invitations, dashboard_sessions;
      ALTER TABLE api_keys DROP COLUMN expires_at;
      ALTER TABLE users DROP COLUMN password_changed_at, DROP COLUMN role;
    `);
  }
}
