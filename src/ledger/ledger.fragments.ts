import { raw, Sql, sql, SqlCtes, SqlValue } from '../database/sql';
import { platformEnvironmentOf, feeTermsOfEnvironment } from '../organizations/organizations.fragments';
import { applicationFeeOf } from '../payment-requests/payment-requests.fragments';
import type { SettlementContext } from '../payments/settlement-types';
import { LedgerTerms } from './ledger.repository';

/*
 * The ledger side of other statements: its settlement extension's CTE (which the bench's ceiling
 * runs too) and a payment's payout. Declared here, with what each gives.
 */

/**
 * The ledger's part in settling a payment (a settlement extension's CTE): a payment the statement
 * completes gets its `payment` transaction, with the fee of its organization's rate (else the
 * default) of the amount, rounded half up, available `payoutDelayDays` after completion. The
 * database refuses a second `payment` transaction for one payment (one per source and type).
 *
 * A connected account's application fee (docs/platforms.md) moves in the same insert: a payment
 * whose request has a fee above 0 also moves it from the account's balance (`application_fee`,
 * negative) to its platform's environment of the same kind (`application_fee_received`), both
 * available with the payment; neither when the account has no platform any more. One insert, so
 * the environment's fee terms are read once and the table's indexes and triggers are opened once;
 * the platform is looked up only for a payment with a fee.
 */
export function ledgerSettlementCte(ctx: SettlementContext, terms: LedgerTerms): SqlCtes<'ledger_payment'> {
  return sql`ledger_payment AS (
      INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                        environment_id, organization_id, created_at)
      SELECT gen_random_uuid(), x.type, x.amount, x.fee, x.amount - x.fee, s.id, s.id,
             s.completed_at + make_interval(days => ${terms.payoutDelayDays}::int), x.environment_id,
             x.organization_id, s.completed_at
        FROM ${raw(ctx.settled)} s
       CROSS JOIN LATERAL ${feeTermsOfEnvironment(raw('s.environment_id'))} o
       CROSS JOIN LATERAL (SELECT ${applicationFeeOf(raw('s.payment_request_id'))}::bigint AS fee) a
        LEFT JOIN LATERAL (SELECT * FROM ${platformEnvironmentOf(raw('s.environment_id'))} pp WHERE a.fee > 0) p ON true
       CROSS JOIN LATERAL (VALUES
               ('payment', s.amount::bigint, (s.amount::bigint * COALESCE(o.fee_bps, ${terms.defaultFeeBps}::int) + 5000) / 10000,
                s.environment_id, o.organization_id),
               ('application_fee', -a.fee, 0, s.environment_id, o.organization_id),
               ('application_fee_received', a.fee, 0, p.environment_id, p.organization_id))
             AS x(type, amount, fee, environment_id, organization_id)
       WHERE s.status = 'completed' AND (x.type = 'payment' OR p.environment_id IS NOT NULL)
      RETURNING id
    )`;
}

/** SQL: the payout that paid out the payment `paymentId` names (its `payment` transaction's), else null. */
export function payoutIdOfPayment(paymentId: Sql): SqlValue<string | null> {
  return sql`(SELECT bt.payout_id FROM balance_transactions bt WHERE bt.source_id = ${paymentId} AND bt.type = 'payment')`;
}
