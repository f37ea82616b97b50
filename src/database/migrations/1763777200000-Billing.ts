import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscription billing: products and their prices, customers, subscriptions and their invoices
 * (docs/billing.md). The invariants live here: one customer per (organization, externalUserId),
 * one invoice per (subscription, period start), one invoice per payment request, statuses by
 * CHECK. `subscriptions.due_at` is computed by the database from the status and dates: it is
 * when the billing run next has something to do with the subscription, and its index is what the
 * run claims from.
 */
export class Billing1763777200000 implements MigrationInterface {
  name = 'Billing1763777200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE products (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        description text CHECK (length(description) <= 2000),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX products_list_idx ON products (environment_id, created_at DESC, id DESC) WHERE active;

      CREATE TABLE prices (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        amount integer NOT NULL CHECK (amount BETWEEN 1 AND 100000000),
        interval text NOT NULL CHECK (interval IN ('weekly', 'monthly', 'yearly')),
        active boolean NOT NULL DEFAULT true,
        -- The price that replaced this one (PATCH with replaceExisting).
        replaced_by uuid REFERENCES prices(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (replaced_by IS NULL OR NOT active)
      );
      CREATE INDEX prices_product_idx ON prices (product_id, created_at, id) WHERE active;

      CREATE TABLE customers (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        external_user_id text NOT NULL CHECK (length(external_user_id) BETWEEN 1 AND 128),
        phone text CHECK (phone ~ '^[234][0-9]{7}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX customers_external_user_key ON customers (organization_id, external_user_id);
      CREATE INDEX customers_list_idx ON customers (organization_id, created_at DESC, id DESC);

      -- 'past_due' is not stored: an active subscription with an invoice still pending after its
      -- due date is past_due (docs/billing.md), so the status can never disagree with the invoices.
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        customer_id uuid NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        price_id uuid NOT NULL REFERENCES prices(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('trialing', 'active', 'paused', 'pending_cancellation', 'cancelled', 'expired')),
        trial_end timestamptz,
        started_at timestamptz NOT NULL,
        -- Periods are counted from an anchor, never from the previous period, so that a period
        -- anchored on the 31st comes back to the 31st after February (src/subscriptions/periods.ts).
        billing_anchor timestamptz NOT NULL,
        billing_interval text NOT NULL CHECK (billing_interval IN ('weekly', 'monthly', 'yearly')),
        next_period integer NOT NULL DEFAULT 0 CHECK (next_period >= 0),
        current_period_start timestamptz,
        current_period_end timestamptz,
        next_billing_date timestamptz,
        expires_at timestamptz,
        cancelled_at timestamptz,
        paused_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        due_at timestamptz GENERATED ALWAYS AS (
          CASE
            WHEN status IN ('trialing', 'active') THEN least(next_billing_date, expires_at)
            WHEN status = 'pending_cancellation' THEN least(current_period_end, expires_at)
            WHEN status = 'paused' THEN expires_at
          END
        ) STORED,
        CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL)),
        CHECK ((status = 'paused') = (paused_at IS NOT NULL)),
        CHECK (status NOT IN ('trialing', 'active') OR next_billing_date IS NOT NULL),
        CHECK (status <> 'pending_cancellation' OR current_period_end IS NOT NULL),
        CHECK (current_period_end > current_period_start),
        CHECK (trial_end > started_at),
        CHECK (expires_at > started_at)
      );
      CREATE INDEX subscriptions_list_idx ON subscriptions (environment_id, created_at DESC, id DESC);
      CREATE INDEX subscriptions_status_idx ON subscriptions (environment_id, status, created_at DESC, id DESC);
      -- The lists' totals: narrow and deduplicated (few distinct values), so a count reads it alone.
      CREATE INDEX subscriptions_count_idx ON subscriptions (environment_id, status);
      -- A customer has few subscriptions: found by customer, sorted in memory.
      CREATE INDEX subscriptions_customer_idx ON subscriptions (customer_id);
      -- The billing run's claims: every environment (the schedule), one environment (the sandbox route).
      CREATE INDEX subscriptions_due_idx ON subscriptions (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX subscriptions_environment_due_idx ON subscriptions (environment_id, due_at) WHERE due_at IS NOT NULL;

      CREATE TABLE invoices (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        customer_id uuid NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
        subscription_id uuid NOT NULL REFERENCES subscriptions(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'void', 'refunded')),
        amount numeric(12, 2) NOT NULL CHECK (amount > 0),
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        due_date timestamptz,
        payment_request_id uuid REFERENCES payment_requests(id),
        paid_at timestamptz,
        voided_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (period_end > period_start),
        CHECK ((status = 'void') = (voided_at IS NOT NULL)),
        CHECK (status NOT IN ('paid', 'refunded') OR paid_at IS NOT NULL)
      );
      CREATE UNIQUE INDEX invoices_period_key ON invoices (subscription_id, period_start);
      CREATE UNIQUE INDEX invoices_payment_request_key ON invoices (payment_request_id);
      CREATE INDEX invoices_list_idx ON invoices (organization_id, created_at DESC, period_start DESC, id DESC);
      -- A subscription's invoices are found by invoices_period_key, a customer's by this one: few
      -- each, sorted in memory. Every index here is paid for on each invoice the billing run writes.
      CREATE INDEX invoices_customer_idx ON invoices (customer_id);
      CREATE INDEX invoices_count_idx ON invoices (organization_id);
      -- What makes a subscription past_due: its own pending invoices (the run, cancelling, a page of
      -- the list), and an environment's overdue ones (the past_due and active filters).
      CREATE INDEX invoices_unpaid_idx ON invoices (subscription_id, due_date) WHERE status = 'pending';
      CREATE INDEX invoices_overdue_idx ON invoices (environment_id, due_date, subscription_id) WHERE status = 'pending';

      ALTER TABLE payment_requests
        ADD CONSTRAINT payment_requests_invoice_fkey FOREIGN KEY (invoice_id) REFERENCES invoices(id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_requests DROP CONSTRAINT payment_requests_invoice_fkey;
      DROP TABLE invoices, subscriptions, customers, prices, products;
    `);
  }
}
