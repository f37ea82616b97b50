import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { pageRows } from '../database/paging';
import { and, raw, Sql, sql } from '../database/sql';
import { platformEnvironmentOf } from '../organizations/connected-accounts.repository';
import { feeTermsOfEnvironment } from '../organizations/organizations.repository';
import { applicationFeeOf } from '../payment-requests/payment-requests.repository';
import type { SettlementContext } from '../payments/settlement';
import {
  BalanceTransaction,
  BalanceTransactionJson,
  BalanceTransactionType,
  toBalanceTransactionJson,
} from './balance-transaction';

/** How the ledger prices a payment: the default fee rate and the days until its money is available. */
export interface LedgerTerms {
  defaultFeeBps: number;
  payoutDelayDays: number;
}

/** A balance transaction's columns as `BalanceTransaction` (amounts as numbers: bigint columns). */
const COLUMNS = raw(`t.id, t.type, t.amount::float8 AS amount, t.fee::float8 AS fee, t.net::float8 AS net,
  t.source_id AS "sourceId", t.payment_id AS "paymentId", t.available_on AS "availableOn", t.payout_id AS "payoutId",
  t.environment_id AS "environmentId", t.organization_id AS "organizationId", t.created_at AS "createdAt"`);

/**
 * The ledger's part in settling a payment (a settlement extension's CTEs): a payment the statement
 * completes gets its `payment` transaction, with the fee of its organization's rate (else the
 * default) of the amount, rounded half up, available `payoutDelayDays` after completion. The
 * database refuses a second `payment` transaction for one payment (one per source and type).
 */
export function paymentTransactionCtes(ctx: SettlementContext, terms: LedgerTerms): Sql {
  return sql`ledger_payment AS (
      INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                        environment_id, organization_id, created_at)
      SELECT gen_random_uuid(), 'payment', s.amount, f.fee, s.amount - f.fee, s.id, s.id,
             s.completed_at + make_interval(days => ${terms.payoutDelayDays}::int), s.environment_id,
             o.organization_id, s.completed_at
        FROM ${raw(ctx.settled)} s
       CROSS JOIN LATERAL ${feeTermsOfEnvironment(raw('s.environment_id'))} o
       CROSS JOIN LATERAL (SELECT (s.amount::bigint * COALESCE(o.fee_bps, ${terms.defaultFeeBps}::int) + 5000) / 10000 AS fee) f
       WHERE s.status = 'completed'
      RETURNING id
    )`;
}

/**
 * A connected account's application fee (docs/platforms.md), in the statement that settles its
 * payment: a payment the statement completes whose request has a fee above 0 moves it from the
 * account's balance (`application_fee`, negative) to its platform's environment of the same kind
 * (`application_fee_received`), both available with the payment. One per payment and type, like
 * every transaction; nothing when the account has no platform any more.
 */
export function applicationFeeCtes(ctx: SettlementContext, terms: LedgerTerms): Sql {
  return sql`ledger_application_fee AS (
      INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                        environment_id, organization_id, created_at)
      SELECT gen_random_uuid(), x.type, x.amount, 0, x.amount, s.id, s.id,
             s.completed_at + make_interval(days => ${terms.payoutDelayDays}::int), x.environment_id,
             x.organization_id, s.completed_at
        FROM ${raw(ctx.settled)} s
       CROSS JOIN LATERAL (SELECT ${applicationFeeOf(raw('s.payment_request_id'))}::bigint AS fee) f
       CROSS JOIN LATERAL ${feeTermsOfEnvironment(raw('s.environment_id'))} o
       CROSS JOIN LATERAL ${platformEnvironmentOf(raw('s.environment_id'))} p
       CROSS JOIN LATERAL (VALUES ('application_fee', -f.fee, s.environment_id, o.organization_id),
                                  ('application_fee_received', f.fee, p.environment_id, p.organization_id))
             AS x(type, amount, environment_id, organization_id)
       WHERE s.status = 'completed' AND f.fee > 0
      RETURNING id
    )`;
}

/** Balance transactions (append-only) and the balance of each environment. */
@Injectable()
export class LedgerRepository {
  constructor(private readonly db: Db) {}

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
}
