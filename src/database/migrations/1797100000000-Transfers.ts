import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Paying from any wallet of the national switch (docs/transfers.md, CONTRACT "GIMTEL transfers").
 *
 * - `payment_methods` gain `flow` (`push`: the bank app is asked to debit the customer; `transfer`:
 *   the customer sends the money). Every environment gets one `gimtel` row (flow `transfer`), off
 *   until its owner turns it on, holding the merchant's receiving wallet (`receiving_bank`,
 *   `receiving_phone`); Sandbox's is preset to BANKILY / 22220000. An enabled transfer method
 *   always has its wallet (CHECK).
 * - `gimtel_apps`: the member apps a customer may pay from, data an operator changes (payments owns it).
 * - `payments` gain `claim_expires_at` and the receiving wallet the payer was told to pay
 *   (`receiving_bank`, `receiving_phone`), all three set exactly on transfer payments; the partial
 *   index is the matching's look-up (pending transfer payments of a payer and amount).
 * - `transfers`: the money that arrived (transfers owns it). `live` false: injected in Sandbox.
 *   A live transfer is stored once per (receiving_bank, bank_reference), the bank's idempotency key;
 *   Sandbox references are the environment's own (its merchant may inject a reference twice). A
 *   live transfer to a wallet no Production environment has enabled (or more than one) is kept
 *   with no environment (`environment_id` null, `unmatched`): the money is there and an operator
 *   must see it. A payment is completed by at most one transfer (unique `payment_id`).
 */
export class Transfers1797100000000 implements MigrationInterface {
  name = 'Transfers1797100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_methods DROP CONSTRAINT payment_methods_type_check;
      ALTER TABLE payment_methods
        ADD CONSTRAINT payment_methods_type_check
          CHECK (type IN ('bankily', 'masrivi', 'sedad', 'bim_bank', 'amanty', 'bci_pay', 'gimtel')),
        ADD COLUMN flow text NOT NULL DEFAULT 'push' CHECK (flow IN ('push', 'transfer')),
        ADD COLUMN receiving_bank text CHECK (receiving_bank ~ '^[A-Z][A-Z0-9_]{1,39}$'),
        ADD COLUMN receiving_phone text CHECK (receiving_phone ~ '^[234][0-9]{7}$'),
        ADD CONSTRAINT payment_methods_transfer_flow CHECK ((flow = 'transfer') = (type = 'gimtel')),
        ADD CONSTRAINT payment_methods_wallet_of_transfers
          CHECK (flow = 'transfer' OR (receiving_bank IS NULL AND receiving_phone IS NULL)),
        ADD CONSTRAINT payment_methods_enabled_transfer_has_wallet
          CHECK (NOT (enabled AND flow = 'transfer') OR (receiving_bank IS NOT NULL AND receiving_phone IS NOT NULL));

      INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code, enabled, position, flow,
                                   receiving_bank, receiving_phone)
      SELECT e.id, 'gimtel', 'GIMTEL', false, 'gimtel', false, 10, 'transfer',
             CASE WHEN e.kind = 'sandbox' THEN 'BANKILY' END, CASE WHEN e.kind = 'sandbox' THEN '22220000' END
        FROM environments e
      ON CONFLICT (environment_id, type) DO NOTHING;
      -- A Production notification finds its environment by the enabled receiving wallet.
      CREATE INDEX payment_methods_receiving_wallet_idx ON payment_methods (receiving_bank, receiving_phone)
        WHERE flow = 'transfer' AND enabled;

      CREATE TABLE gimtel_apps (
        code text PRIMARY KEY CHECK (code ~ '^[a-z][a-z0-9_]{1,39}$'),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
        position integer NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO gimtel_apps (code, name, position) VALUES
        ('bankily', 'Bankily', 1), ('sedad', 'Sedad', 2), ('click', 'Click', 3), ('amanty', 'Amanty', 4),
        ('bci_pay', 'BCI Pay', 5), ('bamis_digital', 'Bamis Digital', 6), ('berid_cash', 'Bérid Cash', 7);

      ALTER TABLE payments
        ADD COLUMN claim_expires_at timestamptz,
        ADD COLUMN receiving_bank text,
        ADD COLUMN receiving_phone text,
        ADD CONSTRAINT payments_transfer_columns
          CHECK ((claim_expires_at IS NULL) = (receiving_phone IS NULL) AND (receiving_phone IS NULL) = (receiving_bank IS NULL));
      CREATE INDEX payments_transfer_candidates_idx ON payments (environment_id, phone_number, amount)
        WHERE status = 'pending' AND claim_expires_at IS NOT NULL;
      CREATE INDEX payments_transfer_claims_idx ON payments (claim_expires_at)
        WHERE status = 'pending' AND claim_expires_at IS NOT NULL;

      CREATE TABLE transfers (
        id uuid PRIMARY KEY,
        environment_id uuid REFERENCES environments(id) ON DELETE CASCADE,
        organization_id uuid REFERENCES organizations(id) ON DELETE CASCADE,
        live boolean NOT NULL,
        bank_reference text NOT NULL CHECK (length(bank_reference) BETWEEN 1 AND 200),
        receiving_bank text NOT NULL CHECK (receiving_bank ~ '^[A-Z][A-Z0-9_]{1,39}$'),
        receiving_phone text NOT NULL CHECK (receiving_phone ~ '^[234][0-9]{7}$'),
        payer_phone text NOT NULL CHECK (payer_phone ~ '^[234][0-9]{7}$'),
        payer_app text NOT NULL CHECK (length(payer_app) BETWEEN 1 AND 60),
        amount integer NOT NULL CHECK (amount BETWEEN 1 AND 100000000),
        memo text CHECK (length(memo) <= 500),
        received_at timestamptz NOT NULL,
        status text NOT NULL CHECK (status IN ('matched', 'unmatched', 'assigned', 'returned')),
        payment_id uuid REFERENCES payments(id) ON DELETE CASCADE,
        payment_request_id uuid REFERENCES payment_requests(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((environment_id IS NULL) = (organization_id IS NULL)),
        CHECK (environment_id IS NOT NULL OR (live AND status = 'unmatched')),
        CHECK ((status IN ('matched', 'assigned')) = (payment_id IS NOT NULL)),
        CHECK ((payment_id IS NULL) = (payment_request_id IS NULL))
      );
      CREATE UNIQUE INDEX transfers_bank_reference_key ON transfers (receiving_bank, bank_reference) WHERE live;
      CREATE UNIQUE INDEX transfers_sandbox_reference_key ON transfers (environment_id, receiving_bank, bank_reference)
        WHERE NOT live;
      CREATE UNIQUE INDEX transfers_one_per_payment ON transfers (payment_id) WHERE payment_id IS NOT NULL;
      CREATE INDEX transfers_list_idx ON transfers (environment_id, created_at DESC, id DESC);
      CREATE INDEX transfers_status_idx ON transfers (environment_id, status, created_at DESC, id DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE transfers;
      DROP INDEX payments_transfer_candidates_idx, payments_transfer_claims_idx;
      ALTER TABLE payments DROP CONSTRAINT payments_transfer_columns,
        DROP COLUMN claim_expires_at, DROP COLUMN receiving_bank, DROP COLUMN receiving_phone;
      DROP TABLE gimtel_apps;
      DELETE FROM payment_methods WHERE type = 'gimtel';
      ALTER TABLE payment_methods DROP CONSTRAINT payment_methods_enabled_transfer_has_wallet,
        DROP CONSTRAINT payment_methods_wallet_of_transfers, DROP CONSTRAINT payment_methods_transfer_flow,
        DROP COLUMN flow, DROP COLUMN receiving_bank, DROP COLUMN receiving_phone,
        DROP CONSTRAINT payment_methods_type_check;
      ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_type_check
        CHECK (type IN ('bankily', 'masrivi', 'sedad', 'bim_bank', 'amanty', 'bci_pay'));
    `);
  }
}
