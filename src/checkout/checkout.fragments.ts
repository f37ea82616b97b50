import { raw, Sql, sql, SqlCtes, SqlRows } from '../database/sql';
import { organizationOfEnvironment } from '../organizations/organizations.fragments';
import type { EventKind } from '../webhooks/event-kinds';
import { insertEventPerRow } from '../webhooks/outbox';
import { sessionJsonSql } from './checkout-session';
import type { SettlementContext } from '../payments/settlement-types';

/*
 * The checkout side of the settling statement: its settlement extension's CTEs (which the bench's
 * ceiling runs too). Declared here, with what they give.
 */

/**
 * The checkout extension of settlement: CTEs completing the open session of the payment request
 * the statement pays and recording `checkout-session-completed`, so the payment, the request and
 * the session change in one transaction (a request paid by any route completes its session).
 */
export function completeOpenSessionCtes(ctx: SettlementContext): SqlCtes<`checkout_${string}`> {
  return sql`checkout_completed AS (
      UPDATE checkout_sessions s
         SET status = 'completed', completed_at = ${ctx.at}, updated_at = ${ctx.at},
             selected_configuration_id = COALESCE(${ctx.paymentMethodId}::uuid, s.selected_configuration_id)
       WHERE s.payment_request_id IN (SELECT id FROM ${raw(ctx.paid)}) AND s.status = 'open'
      RETURNING s.*
    ), checkout_completed_event AS (${sessionEvents(raw('checkout_completed s'), 'checkout-session-completed', ctx.at)})`;
}

/** The outbox's insert of an event per session of `from` (alias `s`). */
export function sessionEvents(from: Sql, kind: EventKind, at: Date | Sql): SqlRows<never> {
  return insertEventPerRow(from, {
    organizationId: organizationOfEnvironment(raw('s.environment_id')),
    environmentId: raw('s.environment_id'),
    kind,
    data: sessionJsonSql('s'),
    createdAt: at,
  });
}
