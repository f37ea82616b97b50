import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { raw, sql } from '../database/sql';
import { paymentMethodOf } from '../payments/payments.fragments';

/** One UTC day and bank app of the settlement report (`net` is computed from the others). */
export interface SettlementDay {
  date: string;
  paymentMethod: string;
  payments: number;
  gross: number;
  fees: number;
  refunds: number;
}

/** The settlement report's reading of the balance transactions (docs/ledger.md). */
@Injectable()
export class SettlementReportRepository {
  constructor(private readonly db: Db) {}

  /**
   * The settlement report's rows: per UTC day of the transaction and bank app of its payment, the
   * payments (count, gross, fees) and the refunds (debited, less those credited back). One range
   * scan of balance_transactions_list_idx; `to` is excluded.
   */
  days(environmentId: string, from: Date, to: Date): Promise<SettlementDay[]> {
    return this.db.many<SettlementDay>(sql`
      SELECT to_char((t.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS date, m.method AS "paymentMethod",
             count(*) FILTER (WHERE t.type = 'payment')::int AS payments,
             COALESCE(sum(t.amount) FILTER (WHERE t.type = 'payment'), 0)::float8 AS gross,
             COALESCE(sum(t.fee) FILTER (WHERE t.type = 'payment'), 0)::float8 AS fees,
             COALESCE(-sum(t.amount) FILTER (WHERE t.type IN ('refund', 'refund_failure')), 0)::float8 AS refunds
        FROM balance_transactions t
       CROSS JOIN LATERAL ${paymentMethodOf(raw('t.payment_id'))} m
       WHERE t.environment_id = ${environmentId} AND t.created_at >= ${from} AND t.created_at < ${to}
         AND t.type IN ('payment', 'refund', 'refund_failure')
       GROUP BY 1, 2
       ORDER BY 1, 2`);
  }
}
