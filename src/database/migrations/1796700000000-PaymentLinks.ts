import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment links (docs/payment-links.md): a page at /l/<code> that makes a payment request and its
 * checkout session for each customer. `code` is random (never derived from the id), unique across
 * environments since the page has no key to choose one. `amount` null: the customer types it,
 * between `min_amount` and `max_amount`. `requests_started` numbers the link's requests
 * (`link_<code>_<n>`), incremented under the link's row lock, the lock that also serialises the
 * count of places against `max_payments`.
 *
 * `payment_requests.payment_link_id`: the link a request was made for. Such a request is paid only
 * through its checkout session, and is void once that session ends unpaid, so a link's places
 * taken are its requests that are not void (paid, or with a session still open). The partial index
 * serves that count, the link's totals and its requests' list, and costs other requests nothing.
 */
export class PaymentLinks1796700000000 implements MigrationInterface {
  name = 'PaymentLinks1796700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_links (
        id uuid PRIMARY KEY,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        code text NOT NULL UNIQUE CHECK (code ~ '^[0-9A-Za-z]{10}$'),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
        description text CHECK (length(description) <= 500),
        amount integer CHECK (amount BETWEEN 1 AND 100000000),
        min_amount integer CHECK (min_amount BETWEEN 1 AND 100000000),
        max_amount integer CHECK (max_amount BETWEEN 1 AND 100000000),
        max_payments integer CHECK (max_payments >= 1),
        expires_at timestamptz,
        success_message text CHECK (length(success_message) <= 280),
        language text NOT NULL DEFAULT 'fr' CHECK (language IN ('fr', 'ar', 'en')),
        active boolean NOT NULL DEFAULT true,
        requests_started integer NOT NULL DEFAULT 0 CHECK (requests_started >= 0),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        -- A fixed amount, or the customer's choice within limits: never both.
        CHECK ((amount IS NULL) = (min_amount IS NOT NULL AND max_amount IS NOT NULL)),
        CHECK (min_amount <= max_amount)
      );
      CREATE INDEX payment_links_list_idx ON payment_links (environment_id, created_at DESC, id DESC);

      ALTER TABLE payment_requests ADD COLUMN payment_link_id uuid REFERENCES payment_links(id) ON DELETE CASCADE;
      CREATE INDEX payment_requests_link_idx ON payment_requests (payment_link_id, created_at DESC, id DESC)
        WHERE payment_link_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_requests DROP COLUMN payment_link_id;
      DROP TABLE payment_links;
    `);
  }
}
