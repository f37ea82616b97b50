import { ClockScope, onClock } from '../test-clocks/test-clocks.fragments';
import { customerRows } from '../customers/customers.fragments';
import { empty, raw, Sql, sql, SqlCtes, SqlRows, SqlValue } from '../database/sql';
import { ENVIRONMENTS_WITH_ORGANIZATIONS } from '../organizations/organizations.fragments';
import { lockPendingRequestsIn, voidRequestsIn } from '../payment-requests/payment-requests.fragments';
import { hasPendingPayment } from '../payments/payments.fragments';
import type { EventKind } from '../webhooks/event-kinds';
import { insertEventPerRow } from '../webhooks/outbox';
import { INVOICE_COLUMNS, invoiceJsonSql } from './invoice';
import type { SettlementContext } from '../payments/settlement-types';
import { InvoiceReminders } from './invoice-reminders';

/*
 * The invoices side of other modules' statements (set-based billing, settlement, cancel, reminders,
 * the subscription's overdue state), each a data-modifying CTE body, a pair of named CTEs or an
 * expression. Declared here, with what each gives; everything else of invoices is InvoicesRepository's.
 */

/** What a prefix drops: all but ASCII letters and digits, Latin-1 and Latin Extended-A letters, Arabic letters and digits. */
const PREFIX_DROPPED = '[^0-9A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u017F\u0621-\u064A\u0660-\u0669]';
const ACCENTED_LOWER = 'àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿœ';
const ACCENTED_UPPER = 'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞŸŒ';

/**
 * SQL: the prefix of the invoice numbers of the environment `environmentId` (SQL naming it), given
 * the prefix set in billing settings (`setPrefix`, SQL naming `invoice_counters.prefix`): that one
 * when set, else the first four letters or digits of the organization's name, upper-cased ('INV'
 * when it has none).
 */
export function invoiceNumberPrefixOf(environmentId: Sql, setPrefix: Sql): SqlValue<string> {
  // Letters and digits by code point, and the accented Latin letters upper-cased by hand: the same
  // prefix whatever the database's locale (the embedded server's is C, where [:alnum:] and upper()
  // know ASCII only).
  return sql`coalesce(${setPrefix}, (SELECT coalesce(nullif(translate(upper(left(regexp_replace(o.name, ${PREFIX_DROPPED}, '', 'g'), 4)),
                                               ${ACCENTED_LOWER}, ${ACCENTED_UPPER}), ''), 'INV')
                FROM ${ENVIRONMENTS_WITH_ORGANIZATIONS} WHERE e.id = ${environmentId}))`;
}

/** SQL: the invoice number `<prefix>-000001` of number `seq` (SQL naming both): six digits at least. */
const formattedNumber = (prefix: Sql, seq: Sql) =>
  sql`${prefix} || '-' || CASE WHEN ${seq} < 1000000 THEN lpad(${seq}::text, 6, '0') ELSE ${seq}::text END`;

/**
 * CTEs `<name>_new`, `<name>_counted` and `<name>` inserting one invoice per row of `source` (SQL
 * after FROM; columns id, organization_id, environment_id, customer_id, subscription_id, amount,
 * subtotal, discount, credit_applied, lines, proration, status, period_start, period_end, due_date,
 * payment_request_id, test_clock_id, created_at); `<name>` returns the id, customer_id, credit_applied and number
 * of those inserted.
 *
 * A period already invoiced inserts nothing (the subscription's lock, which every writer of its
 * invoices holds, makes the check exact), so a retried batch bills no period twice. A proration
 * (a change's invoice) is always inserted: it takes the next `proration_seq` of its subscription
 * and instant (1 for the first), so two changes in one millisecond, or one on a period's first
 * instant, each keep their invoice; a statement writes at most one proration per subscription (one
 * change). The invoices inserted take the next numbers of their environment, in order of period and id: `<name>_counted`
 * adds their count to the environment's counter and returns its new last number, so the numbers are
 * those below it. The counter row stays locked until the transaction ends: a concurrent statement
 * (any instance) numbers after this one commits, and a rollback takes the numbers back. No gap, no
 * duplicate (docs/billing.md "Invoice numbers"). Each pending invoice's `reminder_at` is its first
 * reminder time (`reminders`), so the reminder run leaves it alone until then.
 */
export function insertInvoicesCtes(name: string, source: Sql, reminders: InvoiceReminders): SqlCtes<string> {
  const [fresh, counted, inserted] = [raw(`${name}_new`), raw(`${name}_counted`), raw(name)];
  return sql`${fresh} AS (
      SELECT n.*, row_number() OVER (PARTITION BY n.environment_id ORDER BY n.period_start, n.id) AS seq,
             count(*) OVER (PARTITION BY n.environment_id) AS in_environment
        FROM (SELECT s.*,
                     CASE WHEN s.proration
                          THEN (SELECT coalesce(max(i.proration_seq), 0) + 1 FROM invoices i
                                 WHERE i.subscription_id = s.subscription_id AND i.period_start = s.period_start)
                          ELSE 0 END AS proration_seq
                FROM ${source} s) n
       WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.subscription_id = n.subscription_id
                            AND i.period_start = n.period_start AND i.proration_seq = n.proration_seq)
    ), ${counted} AS (
      INSERT INTO invoice_counters AS k (environment_id, organization_id, last_number)
      SELECT environment_id, organization_id, count(*) FROM ${fresh} GROUP BY environment_id, organization_id
      ON CONFLICT (environment_id) DO UPDATE SET last_number = k.last_number + excluded.last_number
      RETURNING k.environment_id, k.last_number, ${invoiceNumberPrefixOf(raw('k.environment_id'), raw('k.prefix'))} AS prefix
    ), ${inserted} AS (
      INSERT INTO invoices (id, organization_id, environment_id, customer_id, subscription_id, amount, subtotal, discount,
                            credit_applied, lines, proration, proration_seq, status, paid_at, number_seq, number,
                            period_start, period_end, due_date, payment_request_id, test_clock_id, created_at, updated_at,
                            reminder_at)
      SELECT n.id, n.organization_id, n.environment_id, n.customer_id, n.subscription_id, n.amount, n.subtotal, n.discount,
             n.credit_applied, n.lines, n.proration, n.proration_seq, n.status, CASE WHEN n.status = 'paid' THEN n.created_at END,
             k.last_number - n.in_environment + n.seq,
             ${formattedNumber(raw('k.prefix'), raw('(k.last_number - n.in_environment + n.seq)'))},
             n.period_start, n.period_end, n.due_date, n.payment_request_id, n.test_clock_id, n.created_at, n.created_at,
             CASE WHEN n.status = 'pending' THEN ${reminders.firstReminderAt(raw('n.environment_id'), raw('n.due_date'))} END
        FROM ${fresh} n JOIN ${counted} k ON k.environment_id = n.environment_id
      RETURNING id, customer_id, credit_applied, number
    )`;
}

/**
 * CTEs voiding the pending invoices of the subscriptions `subscriptionIds` selects, with their
 * `invoice-voided` events, and making their payment requests unpayable (`voided_at`). The
 * requests are locked first, in the order payments lock them (request, then invoice), so a
 * payment settling at the same moment is waited for: an invoice it paid stays paid. An invoice
 * whose request has a payment with the bank is left pending: that payment decides it (paid, or
 * void when it fails: `voidAfterFailureCtes`).
 */
export function voidPendingCtes(
  name: string,
  subscriptionIds: Sql,
  at: Date,
  publicUrl: string,
): SqlCtes<string> {
  return voidInvoicesCtes(
    name,
    sql`i.subscription_id IN (${subscriptionIds})
        AND NOT ${hasPendingPayment(raw('i.payment_request_id'))}`,
    at,
    publicUrl,
  );
}

/**
 * Locks the payment requests of the pending invoices of these subscriptions. Run in the voiding
 * transaction before the statement of `voidPendingCtes`: that statement then starts after any
 * payment being opened for them has committed, and so sees it (a statement sees what was committed
 * before it started, and opening a payment holds its request's lock).
 */
export function lockPendingRequestsOf(subscriptionIds: string[]): SqlRows<{ id: string }> {
  return lockPendingRequestsIn(sql`SELECT i.payment_request_id FROM invoices i
              WHERE i.subscription_id = ANY(${subscriptionIds}::uuid[]) AND i.status = 'pending'`);
}

/**
 * The billing part of a payment that failed: the pending invoice of a cancelled subscription that
 * was waiting for it becomes void (as cancelling would have made it). `settled` names the CTE
 * of the settling statement returning the settled payment; `cancelledSubscriptions` selects the
 * ids of the cancelled subscriptions (a fragment of the subscriptions module, which owns them).
 */
export function voidAfterFailureCtes(
  name: string,
  settled: string,
  cancelledSubscriptions: Sql,
  at: Date,
  publicUrl: string,
): SqlCtes<string> {
  return voidInvoicesCtes(
    name,
    sql`i.payment_request_id IN (SELECT payment_request_id FROM ${raw(settled)} WHERE status = 'failed')
        AND i.subscription_id IN (${cancelledSubscriptions})`,
    at,
    publicUrl,
  );
}

/**
 * SQL: whether the subscription (`subscriptionId`, SQL naming it) has an invoice still pending
 * after its due date at `at`, `except` (an invoice id) aside. With `environmentId`, the
 * subscription's (its invoices live there), a filter can start from the environment's overdue
 * invoices, by index.
 */
export function hasOverdueInvoice(of: {
  subscriptionId: Sql;
  at: Sql | Date;
  environmentId?: Sql;
  except?: Sql;
}): SqlValue<boolean> {
  const inEnvironment = of.environmentId ? sql` AND o.environment_id = ${of.environmentId}` : empty;
  const except = of.except ? sql` AND o.id <> ${of.except}` : empty;
  return sql`EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = ${of.subscriptionId}${inEnvironment}
                        AND o.status = 'pending' AND o.due_date <= ${of.at}${except})`;
}

/** SQL: the due date of the subscription's (`subscriptionId`, SQL naming it) oldest pending invoice, null when none. */
export function oldestPendingDueDateOf(subscriptionId: Sql): SqlValue<Date | null> {
  return sql`(SELECT min(i.due_date) FROM invoices i WHERE i.subscription_id = ${subscriptionId} AND i.status = 'pending')`;
}

/**
 * The invoices part of settlement: CTEs `<name>` and `<name>_event` marking `paid`, with an
 * `invoice-paid` event, the pending invoice of the request the statement pays. `<name>` returns
 * the paid invoice. A void invoice stays void.
 */
export function payInvoiceCtes(name: string, ctx: SettlementContext, publicUrl: string): SqlCtes<string> {
  return sql`${raw(name)} AS (
      UPDATE invoices i SET status = 'paid', paid_at = ${ctx.at}, updated_at = ${ctx.at}
       WHERE i.payment_request_id IN (SELECT id FROM ${raw(ctx.paid)}) AND i.status = 'pending'
      RETURNING i.*
    ), ${raw(name)}_event AS (${invoiceEvents(raw(`${name} i`), 'invoice-paid', ctx.at, publicUrl)})`;
}

/**
 * SQL after FROM (in parentheses, alias it): per subscription of the environment with invoices
 * still pending at `cutoff` after their due date, `subscription_id` and `due` (the latest such due
 * date). Read through invoices_overdue_idx. For dunning.
 */
export function overdueSubscriptionsOf(environmentId: string, cutoff: Date, clock: ClockScope = null): Sql {
  return sql`SELECT i.subscription_id, max(i.due_date) AS due FROM invoices i
     WHERE i.environment_id = ${environmentId} AND i.status = 'pending' AND i.due_date <= ${cutoff}
       AND ${onClock(raw('i.test_clock_id'), clock)}
     GROUP BY i.subscription_id`;
}

/**
 * SQL: claims up to `limit` pending invoices whose reminder time has come by `now` (in one
 * environment or all), oldest first, locking them (FOR UPDATE SKIP LOCKED: concurrent runs take
 * disjoint invoices, and a payment settling one waits for the batch), with the columns of
 * `ReminderInvoiceRow`. Read through invoices_reminder_idx (or _all_idx): every claimed invoice gets
 * a later reminder time or none (`recordRemindersCte`), so each batch reads only what it claims.
 */
export function claimReminderInvoices(
  now: Date,
  limit: number,
  environmentId?: string,
  clock: ClockScope = null,
): Sql {
  const inEnvironment = environmentId === undefined ? empty : sql` AND i.environment_id = ${environmentId}`;
  return sql`SELECT ${INVOICE_COLUMNS}, i.reminder_step AS "reminderStep", c.phone AS "customerPhone",
         c.language AS "customerLanguage", o.name AS "merchantName", e.kind AS environment
    FROM (SELECT i.id FROM invoices i
           WHERE i.status = 'pending' AND i.reminder_at IS NOT NULL AND i.reminder_at <= ${now}
             AND ${onClock(raw('i.test_clock_id'), clock)}${inEnvironment}
           ORDER BY i.reminder_at LIMIT ${limit} FOR UPDATE OF i SKIP LOCKED) claimed
    JOIN invoices i ON i.id = claimed.id
    JOIN ${customerRows('c')} ON c.id = i.customer_id
    JOIN (${ENVIRONMENTS_WITH_ORGANIZATIONS}) ON e.id = i.environment_id AND o.id = i.organization_id`;
}

/**
 * A data-modifying CTE body recording the reminder run's decisions: per claimed invoice (`id`),
 * when to look again (`next_at`, null: no day left) and the step of the reminder sent now, if any.
 */
export function recordRemindersCte(
  decisions: { id: string; next_at: Date | null; step: number | null }[],
): SqlRows<{ id: string }> {
  return sql`UPDATE invoices i SET reminder_at = x.next_at, reminder_step = coalesce(x.step, i.reminder_step)
      FROM jsonb_to_recordset(${JSON.stringify(decisions)}::jsonb) AS x(id uuid, next_at timestamptz, step integer)
     WHERE i.id = x.id AND i.status = 'pending'
    RETURNING i.id`;
}

/**
 * Makes the environment's pending invoices looked at again by the next reminder run (its reminder
 * days changed: a day now earlier than the time an invoice waits for would be missed).
 */
export function rescheduleRemindersOf(environmentId: string): Sql {
  return sql`UPDATE invoices SET reminder_at = '-infinity'
     WHERE environment_id = ${environmentId} AND status = 'pending' AND due_date IS NOT NULL`;
}

/** The outbox's insert of an event per invoice of `from` (alias `i`). */
export function invoiceEvents(from: Sql, kind: EventKind, at: Date, publicUrl: string): SqlRows<never> {
  return insertEventPerRow(from, {
    organizationId: raw('i.organization_id'),
    environmentId: raw('i.environment_id'),
    kind,
    data: invoiceJsonSql(publicUrl),
    createdAt: at,
  });
}

/** Voids the pending invoices matching `condition` (on `i`, the invoice) whose request is still pending. */
function voidInvoicesCtes(name: string, condition: Sql, at: Date, publicUrl: string): Sql {
  return sql`${raw(name)}_locked AS (
      ${lockPendingRequestsIn(sql`SELECT i.payment_request_id FROM invoices i WHERE i.status = 'pending' AND ${condition}`)}
    ), ${raw(name)} AS (
      UPDATE invoices i SET status = 'void', voided_at = ${at}, updated_at = ${at}
       WHERE i.status = 'pending' AND i.payment_request_id IN (SELECT id FROM ${raw(name)}_locked)
      RETURNING i.*
    ), ${raw(name)}_requests AS (
      ${voidRequestsIn(sql`SELECT payment_request_id FROM ${raw(name)}`, at)}
    ), ${raw(name)}_event AS (${invoiceEvents(raw(`${name} i`), 'invoice-voided', at, publicUrl)})`;
}

/**
 * SQL: the next moment after `after` at which something of the test clock's invoices is due: a
 * reminder time, or (with `dunningDays`, the environment's dunning delay) a pending invoice's due
 * date plus that delay. Null: none.
 */
export function nextInvoiceMomentOnClock(
  clockId: string,
  after: Date,
  dunningDays: number | null,
): SqlValue<Date | null> {
  const dunning =
    dunningDays === null
      ? sql`NULL::timestamptz`
      : sql`(SELECT min(i.due_date) + make_interval(days => ${dunningDays}::int) FROM invoices i
              WHERE i.test_clock_id = ${clockId}::uuid AND i.status = 'pending'
                AND i.due_date > ${after}::timestamptz - make_interval(days => ${dunningDays}::int))`;
  return sql`least((SELECT min(i.reminder_at) FROM invoices i
                     WHERE i.test_clock_id = ${clockId}::uuid AND i.status = 'pending'
                       AND i.reminder_at IS NOT NULL AND i.reminder_at > ${after}), ${dunning})`;
}

/**
 * A data-modifying CTE pair deleting the test clock's invoices and their payment requests (the
 * clock is being deleted): `<name>_requests` names the requests' ids, for the payment requests'
 * delete in the same statement.
 */
export function deleteInvoicesOnClockCtes(name: string, clockId: string): SqlCtes<string> {
  return sql`${raw(name)}_requests AS (
      SELECT payment_request_id AS id FROM invoices WHERE test_clock_id = ${clockId}::uuid AND payment_request_id IS NOT NULL
    ), ${raw(name)} AS (DELETE FROM invoices WHERE test_clock_id = ${clockId}::uuid RETURNING id)`;
}
