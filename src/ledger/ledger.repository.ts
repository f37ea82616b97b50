import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { keysetBatches } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, join, raw, sql } from '../database/sql';
import { platformEnvironmentOf } from '../organizations/organizations.fragments';
import { COMPLETED_PAYMENTS } from '../payments/payments.fragments';
import { applicationFeeOf } from '../payment-requests/payment-requests.fragments';
import {
  BalanceTransaction,
  BalanceTransactionJson,
  BalanceTransactionType,
  toBalanceTransactionJson,
} from './balance-transaction';
import { LedgerChecks } from './ledger-checks';

/** A difference the ledger check found. */
export interface LedgerProblem {
  environmentId: string;
  /** What is wrong (see `check`). */
  kind: string;
  /** The payment, refund or transaction concerned (null: the environment's balance). */
  id: string | null;
  detail: string;
}

/** One environment's ledger as the check saw it. */
export interface LedgerTotals {
  environmentId: string;
  transactions: number;
  /** Sum of `net` over its transactions. */
  net: number;
  /** Sum of `balance_days`, what the balance reads. */
  balance: number;
}

/** How the ledger prices a payment: the default fee rate and the days until its money is available. */
export interface LedgerTerms {
  defaultFeeBps: number;
  payoutDelayDays: number;
}

/** A balance transaction's columns as `BalanceTransaction` (amounts as numbers: bigint columns). */
const COLUMNS = raw(`t.id, t.type, t.amount::float8 AS amount, t.fee::float8 AS fee, t.net::float8 AS net,
  t.source_id AS "sourceId", t.payment_id AS "paymentId", t.available_on AS "availableOn", t.payout_id AS "payoutId",
  t.environment_id AS "environmentId", t.organization_id AS "organizationId", t.created_at AS "createdAt"`);

/** Balance transactions (append-only) and the balance of each environment. */
@Injectable()
export class LedgerRepository {
  constructor(
    private readonly db: Db,
    private readonly checks: LedgerChecks,
  ) {}

  /**
   * The balance: sums of `net` available now and not yet. Whole days before today come from
   * `balance_days` (a few rows per day of history); only today's transactions that became
   * available are summed from the table (balance_transactions_available_idx).
   */
  async balance(environmentId: string): Promise<{ available: number; pending: number }> {
    const row = await this.db.one<{ available: number; pending: number }>(sql`
      WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day),
      days AS (
        SELECT COALESCE(sum(d.net) FILTER (WHERE d.day < today.day), 0) AS before_today, COALESCE(sum(d.net), 0) AS total
          FROM today LEFT JOIN balance_days d ON d.environment_id = ${environmentId}
          GROUP BY today.day
      ), today_available AS (
        SELECT COALESCE(sum(t.net), 0) AS net FROM balance_transactions t, today
         WHERE t.environment_id = ${environmentId}
           AND t.available_on >= today.day::timestamp AT TIME ZONE 'UTC' AND t.available_on <= now()
      )
      SELECT (days.before_today + today_available.net)::float8 AS available,
             (days.total - days.before_today - today_available.net)::float8 AS pending
        FROM days, today_available`);
    return row!;
  }

  /** Newest first; filters combine. */
  async list(
    environmentId: string,
    filter: { type?: BalanceTransactionType; payoutId?: string },
    page: Page,
  ): Promise<{ items: BalanceTransactionJson[]; total: number }> {
    const where = [sql`t.environment_id = ${environmentId}`];
    if (filter.type !== undefined) where.push(sql`t.type = ${filter.type}`);
    if (filter.payoutId !== undefined) where.push(sql`t.payout_id = ${filter.payoutId}`);
    const { rows, total } = await pageRows<BalanceTransaction>(
      this.db,
      {
        select: COLUMNS,
        from: sql`FROM balance_transactions t WHERE ${and(where)}`,
        orderBy: sql`t.created_at DESC, t.id DESC`,
      },
      page,
    );
    return { items: rows.map(toBalanceTransactionJson), total };
  }

  /** The transactions that record a source (a payment, refund or payout), oldest first. */
  ofSource(environmentId: string, sourceId: string): Promise<BalanceTransaction[]> {
    return this.db.many<BalanceTransaction>(sql`
      SELECT ${COLUMNS} FROM balance_transactions t
       WHERE t.source_id = ${sourceId} AND t.environment_id = ${environmentId}
       ORDER BY t.created_at, t.id`);
  }

  /**
   * Records one transaction (`net = amount - fee`). Returns false when the source already has a
   * transaction of that type (one per source and type: a retry never counts money twice).
   */
  async insert(t: Omit<BalanceTransaction, 'net' | 'createdAt'> & { createdAt?: Date }): Promise<boolean> {
    const changed = await this.db.exec(sql`
      INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on, payout_id,
                                        environment_id, organization_id, created_at)
      VALUES (${t.id}, ${t.type}, ${t.amount}, ${t.fee}, ${t.amount - t.fee}, ${t.sourceId}, ${t.paymentId},
              ${t.availableOn}, ${t.payoutId}, ${t.environmentId}, ${t.organizationId}, ${t.createdAt ?? new Date()})
      ON CONFLICT (source_id, type) DO NOTHING`);
    return changed === 1;
  }
  /**
   * The available balance as a payout made now must see it: at the statement's own time, not the
   * transaction's start (`now()`), so a payout that waited on the environment's payout lock counts
   * the payout committed meanwhile. `at` (text, to the microsecond) is that time, the cut-off of
   * the transactions the payout links.
   */
  async availableForPayout(environmentId: string): Promise<{ available: number; at: string }> {
    const row = await this.db.one<{ available: number; at: string }>(sql`
      WITH at AS (SELECT statement_timestamp() AS t, (statement_timestamp() AT TIME ZONE 'UTC')::date AS day),
      days AS (
        SELECT COALESCE(sum(d.net), 0) AS net FROM balance_days d, at
         WHERE d.environment_id = ${environmentId} AND d.day < at.day
      ), today AS (
        SELECT COALESCE(sum(t.net), 0) AS net FROM balance_transactions t, at
         WHERE t.environment_id = ${environmentId}
           AND t.available_on >= at.day::timestamp AT TIME ZONE 'UTC' AND t.available_on <= at.t
      )
      SELECT (days.net + today.net)::float8 AS available, at.t::text AS at FROM days, today, at`);
    return row!;
  }

  /**
   * A payout's `payout` transaction (minus its amount, available at once: at the statement's time,
   * so the next payout's `availableForPayout` counts it) and, for a payout of the whole available
   * balance, the link to it from every transaction it pays (available by `linkUpTo`, not yet paid
   * out). Runs in the transaction that makes the payout, under the environment's payout lock.
   */
  async recordPayout(
    payout: { id: string; amount: number; environmentId: string; organizationId: string },
    linkUpTo: string | null,
  ): Promise<void> {
    await this.db.exec(sql`
      WITH debit AS (
        INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, payout_id,
                                          environment_id, organization_id, created_at)
        VALUES (gen_random_uuid(), 'payout', ${-payout.amount}, 0, ${-payout.amount}, ${payout.id},
                statement_timestamp(), ${payout.id}, ${payout.environmentId}, ${payout.organizationId}, now())
        RETURNING id)
      UPDATE balance_transactions SET payout_id = ${payout.id}
       WHERE ${linkUpTo}::timestamptz IS NOT NULL AND environment_id = ${payout.environmentId}
         AND payout_id IS NULL AND available_on <= ${linkUpTo}::timestamptz`);
  }

  /**
   * A failed payout's money back (`payout_failure`, linked to the payout, available at once); the
   * transactions it was to pay are unlinked, for the next payout to pay. Once per payout: the
   * database refuses a second `payout_failure` of one source.
   */
  async recordPayoutFailure(payout: {
    id: string;
    amount: number;
    environmentId: string;
    organizationId: string;
  }): Promise<void> {
    await this.db.exec(sql`
      WITH credit AS (
        INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, payout_id,
                                          environment_id, organization_id, created_at)
        VALUES (gen_random_uuid(), 'payout_failure', ${payout.amount}, 0, ${payout.amount}, ${payout.id},
                statement_timestamp(), ${payout.id}, ${payout.environmentId}, ${payout.organizationId}, now())
        RETURNING id)
      UPDATE balance_transactions SET payout_id = NULL
       WHERE payout_id = ${payout.id} AND environment_id = ${payout.environmentId}
         AND type NOT IN ('payout', 'payout_failure')`);
  }

  /** Every balance transaction the list's filters select, newest first, in batches (the CSV export). */
  async *listAll(
    environmentId: string,
    filter: { type?: BalanceTransactionType; payoutId?: string },
  ): AsyncGenerator<BalanceTransactionJson[]> {
    const where = [sql`t.environment_id = ${environmentId}`];
    if (filter.type !== undefined) where.push(sql`t.type = ${filter.type}`);
    if (filter.payoutId !== undefined) where.push(sql`t.payout_id = ${filter.payoutId}`);
    for await (const rows of keysetBatches<BalanceTransaction>(this.db, {
      select: COLUMNS,
      from: sql`FROM balance_transactions t`,
      alias: 't',
      where,
    }))
      yield rows.map(toBalanceTransactionJson);
  }

  /**
   * The ledger check (`npm run cli -- ledger:check`), one statement so one snapshot: every
   * completed payment has exactly one `payment` transaction of its amount and no other payment
   * has one; every refund has its `refund` transaction of minus its amount, and a
   * `refund_failure` exactly when it failed; a payment's `refundedAmount` is the sum of its
   * pending and succeeded refunds; a completed payment whose request has an application fee has
   * one `application_fee` of minus the fee and one `application_fee_received` of the fee (none
   * only when its account has no platform), and no other payment has one (docs/platforms.md);
   * each environment's balance (`balance_days`) equals the sum of its transactions' `net`; and
   * whatever the checks registered with `LedgerChecks` find (the payouts'), in the same statement.
   * Returns the problems and each environment's totals.
   */
  async check(): Promise<{ problems: LedgerProblem[]; totals: LedgerTotals[] }> {
    const row = await this.db.one<{ problems: LedgerProblem[] | null; totals: LedgerTotals[] | null }>(sql`
      WITH completed AS (SELECT * FROM ${COMPLETED_PAYMENTS} c),
      payment_tx AS (SELECT * FROM balance_transactions WHERE type = 'payment'),
      refund_tx AS (SELECT source_id, sum(amount) FILTER (WHERE type = 'refund') AS debit,
                           count(*) FILTER (WHERE type = 'refund') AS debits,
                           count(*) FILTER (WHERE type = 'refund_failure') AS credits,
                           sum(amount) FILTER (WHERE type = 'refund_failure') AS credit
                      FROM balance_transactions WHERE type IN ('refund', 'refund_failure') GROUP BY source_id),
      fee_tx AS (SELECT source_id, count(*) FILTER (WHERE type = 'application_fee') AS debits,
                        sum(amount) FILTER (WHERE type = 'application_fee') AS debit,
                        count(*) FILTER (WHERE type = 'application_fee_received') AS credits,
                        sum(amount) FILTER (WHERE type = 'application_fee_received') AS credit
                   FROM balance_transactions WHERE type IN ('application_fee', 'application_fee_received')
                  GROUP BY source_id),
      payout_tx AS (SELECT source_id, type, amount, environment_id, payout_id, available_on
                      FROM balance_transactions WHERE type IN ('payout', 'payout_failure')),
      payout_linked AS (SELECT payout_id, count(*) AS n, sum(net) AS net,
                               count(DISTINCT environment_id) AS environments,
                               min(environment_id::text)::uuid AS environment_id, max(available_on) AS latest
                          FROM balance_transactions
                         WHERE payout_id IS NOT NULL AND type NOT IN ('payout', 'payout_failure')
                         GROUP BY payout_id),
      totals AS (
        SELECT COALESCE(t.environment_id, d.environment_id) AS environment_id, COALESCE(t.n, 0) AS transactions,
               COALESCE(t.net, 0) AS net, COALESCE(d.net, 0) AS balance
          FROM (SELECT environment_id, count(*) AS n, sum(net) AS net FROM balance_transactions GROUP BY environment_id) t
          FULL JOIN (SELECT environment_id, sum(net) AS net FROM balance_days GROUP BY environment_id) d
            ON d.environment_id = t.environment_id
      ),
      problems AS (
        SELECT c.environment_id, 'payment_without_transaction' AS kind, c.id, 'a completed payment has no payment transaction' AS detail
          FROM completed c WHERE NOT EXISTS (SELECT 1 FROM payment_tx t WHERE t.source_id = c.id)
        UNION ALL
        SELECT t.environment_id, 'payment_transaction_differs', t.source_id,
               'amount ' || t.amount || ' for a payment of ' || c.amount
          FROM payment_tx t JOIN completed c ON c.id = t.source_id
         WHERE t.amount <> c.amount OR t.environment_id <> c.environment_id
        UNION ALL
        SELECT t.environment_id, 'transaction_without_completed_payment', t.source_id,
               'a payment transaction of a payment that is not completed'
          FROM payment_tx t WHERE NOT EXISTS (SELECT 1 FROM completed c WHERE c.id = t.source_id)
        UNION ALL
        SELECT r.environment_id, 'refund_transactions_differ', r.id,
               'refund of ' || r.amount || ' (' || r.status || '): debited ' || COALESCE(x.debit, 0) || ' in ' ||
               COALESCE(x.debits, 0) || ', credited back ' || COALESCE(x.credit, 0) || ' in ' || COALESCE(x.credits, 0)
          FROM refunds r LEFT JOIN refund_tx x ON x.source_id = r.id
         WHERE COALESCE(x.debits, 0) <> 1 OR x.debit <> -r.amount
            OR COALESCE(x.credits, 0) <> (CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END)
            OR (r.status = 'failed' AND x.credit <> r.amount)
        UNION ALL
        SELECT c.environment_id, 'refunded_amount_differs', c.id,
               'refundedAmount ' || c.refunded_amount || ', refunds pending or succeeded ' || COALESCE(r.total, 0)
          FROM completed c
          LEFT JOIN (SELECT payment_id, sum(amount) AS total FROM refunds WHERE status <> 'failed' GROUP BY payment_id) r
            ON r.payment_id = c.id
         WHERE c.refunded_amount <> COALESCE(r.total, 0)
        UNION ALL
        SELECT c.environment_id, 'application_fee_differs', c.id,
               'application fee ' || COALESCE(f.fee, 0) || ': debited ' || COALESCE(x.debit, 0) || ' in ' ||
               COALESCE(x.debits, 0) || ', received ' || COALESCE(x.credit, 0) || ' in ' || COALESCE(x.credits, 0)
          FROM completed c
         CROSS JOIN LATERAL (SELECT ${applicationFeeOf(raw('c.payment_request_id'))} AS fee) f
          LEFT JOIN fee_tx x ON x.source_id = c.id
         WHERE CASE WHEN COALESCE(f.fee, 0) = 0 THEN x.source_id IS NOT NULL
                    WHEN x.source_id IS NULL
                      THEN EXISTS (SELECT 1 FROM ${platformEnvironmentOf(raw('c.environment_id'))} p)
                    ELSE x.debits <> 1 OR x.credits <> 1 OR x.debit <> -f.fee OR x.credit <> f.fee END
        UNION ALL
        SELECT t.environment_id, 'application_fee_without_completed_payment', t.source_id,
               'an application fee transaction of a payment that is not completed'
          FROM balance_transactions t
         WHERE t.type IN ('application_fee', 'application_fee_received')
           AND NOT EXISTS (SELECT 1 FROM completed c WHERE c.id = t.source_id)
        UNION ALL
        SELECT environment_id, 'balance_differs', NULL, 'balance ' || balance || ', transactions ' || net
          FROM totals WHERE balance <> net
        ${join(
          this.checks
            .all()
            .map(
              (check) =>
                sql`UNION ALL ${check({ payoutTransactions: 'payout_tx', linked: 'payout_linked' })}`,
            ),
          raw(' '),
        )}
      )
      SELECT (SELECT json_agg(json_build_object('environmentId', environment_id, 'kind', kind, 'id', id, 'detail', detail))
                FROM problems) AS problems,
             (SELECT json_agg(json_build_object('environmentId', environment_id, 'transactions', transactions,
                                                'net', net, 'balance', balance) ORDER BY environment_id)
                FROM totals) AS totals`);
    return { problems: row?.problems ?? [], totals: row?.totals ?? [] };
  }
}
