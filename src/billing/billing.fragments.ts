import type { SettingsRow } from './billing-settings';
import { raw, Sql, sql, SqlCtes, SqlRows, SqlValue } from '../database/sql';
import { payInvoiceCtes, voidAfterFailureCtes } from '../invoices/invoices.fragments';
import { SettlementContext } from '../payments/settlement-types';
import { CANCELLED_SUBSCRIPTION_IDS, reactivationEventCte } from '../subscriptions/subscriptions.fragments';
import { DEFAULT_BILLING_SETTINGS } from './billing-settings';

/*
 * The billing side of other modules' statements: an environment's billing settings and the first
 * reminder of an invoice (the invoices' extension), and billing's settlement CTEs. Declared here,
 * with what each gives.
 */

/**
 * SQL: the settings columns of the environment `environmentId` (SQL naming it), the defaults
 * when it has no row, as one row with the columns of `SettingsRow` (for a LATERAL join).
 */
export function settingsOf(environmentId: Sql): SqlRows<SettingsRow> {
  const d = DEFAULT_BILLING_SETTINGS;
  return sql`(SELECT coalesce(b.reminder_before_due_days, ${d.reminders.beforeDueDays}::int[]) AS "beforeDueDays",
                     coalesce(b.reminder_after_due_days, ${d.reminders.afterDueDays}::int[]) AS "afterDueDays",
                     coalesce(b.sms_enabled, ${d.sms.enabled}) AS "smsEnabled",
                     b.dunning_after_days_overdue AS "dunningAfterDaysOverdue",
                     coalesce(b.dunning_action, ${d.dunning.action}) AS "dunningAction",
                     coalesce(b.portal_allow_cancel, ${d.portal.allowCancel}) AS "portalAllowCancel"
                FROM (SELECT 1) one LEFT JOIN billing_settings b ON b.environment_id = ${environmentId})`;
}

/**
 * SQL: the time of the first reminder day of an invoice of the environment `environmentId` due at
 * `dueDate` (SQL naming them, qualified): the due date less the largest days before it, or with
 * none, plus the smallest days after it, in days of 86,400 s as `reminderDays` counts them (so the
 * reminder run, claiming it then, finds that day reached); `'-infinity'` (the next run looks at it)
 * with no reminder day or no due date.
 */
export function firstReminderAtOf(environmentId: Sql, dueDate: Sql): SqlValue<Date> {
  return sql`coalesce((SELECT ${dueDate} + make_interval(secs => 86400 * min(d.days))
                         FROM ${settingsOf(environmentId)} s,
                              LATERAL (SELECT -before FROM unnest(s."beforeDueDays") before
                                       UNION ALL SELECT after FROM unnest(s."afterDueDays") after) d(days)),
                      '-infinity'::timestamptz)`;
}

/**
 * The billing part of settling a payment: the paid request's pending invoice becomes `paid`
 * (`invoice-paid`) and, when that was its subscription's last overdue invoice, the subscription
 * shows `active` again (`subscription-updated`); past_due is derived from the invoices, so
 * nothing else changes (docs/billing.md). A failed payment that an invoice of a cancelled
 * subscription was waiting for voids it. Only the CTEs of the settlement's outcome.
 */
export function billingSettlementCtes(
  ctx: SettlementContext,
  publicUrl: string,
): SqlCtes<`billing_${string}`> {
  if (!ctx.completed)
    return sql`${voidAfterFailureCtes(
      'billing_voided_after_failure',
      ctx.settled,
      CANCELLED_SUBSCRIPTION_IDS,
      ctx.at,
      publicUrl,
    )}`;
  return sql`${payInvoiceCtes('billing_invoice_paid', ctx, publicUrl)}, ${reactivationEventCte(
    'billing_reactivated',
    raw('billing_invoice_paid'),
    ctx.at,
  )}`;
}
