import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { empty, prepared, raw, sql } from '../database/sql';
import { ReminderInvoiceRow } from '../invoices/invoices.repository';
import {
  claimReminderInvoices,
  recordRemindersCte,
  rescheduleRemindersOf,
  deleteInvoicesOnClockCtes,
} from '../invoices/invoices.fragments';
import { deleteRequestsIn } from '../payment-requests/payment-requests.fragments';
import { ENVIRONMENTS_WITH_ORGANIZATIONS } from '../organizations/organizations.fragments';
import { settingsOf } from './billing.fragments';
import type { ClockScope } from '../test-clocks/test-clocks.fragments';
import type { EnvironmentKind } from '../organizations/tenant';
import { insertEventsFrom } from '../webhooks/outbox';
import {
  DEFAULT_BILLING_SETTINGS,
  DunningAction,
  SettingsRow,
  StoredBillingSettings,
} from './billing-settings';

const SETTINGS_COLUMNS =
  raw(`reminder_before_due_days AS "beforeDueDays", reminder_after_due_days AS "afterDueDays",
  sms_enabled AS "smsEnabled", dunning_after_days_overdue AS "dunningAfterDaysOverdue",
  dunning_action AS "dunningAction", portal_allow_cancel AS "portalAllowCancel"`);

export function toBillingSettings(r: SettingsRow | undefined): StoredBillingSettings {
  if (!r) return DEFAULT_BILLING_SETTINGS;
  return {
    reminders: { beforeDueDays: r.beforeDueDays, afterDueDays: r.afterDueDays },
    sms: { enabled: r.smsEnabled },
    dunning: { afterDaysOverdue: r.dunningAfterDaysOverdue, action: r.dunningAction },
    portal: { allowCancel: r.portalAllowCancel },
  };
}

/** A claimed invoice with its environment's reminder settings. */
export type ReminderRow = ReminderInvoiceRow & {
  beforeDueDays: number[];
  afterDueDays: number[];
  smsEnabled: boolean;
};

/** What one reminder batch writes (`BillingRepository.writeReminders`). */
export interface RemindersWrite {
  decisions: { id: string; next_at: Date | null; step: number | null }[];
  events: {
    id: string;
    organization_id: string;
    environment_id: string;
    kind: string;
    data: object;
    created_at: Date;
  }[];
  sms: {
    id: string;
    organization_id: string;
    environment_id: string;
    invoice_id: string;
    phone: string;
    language: string;
    body: string;
    status: 'pending' | 'logged';
    next_attempt_at: Date | null;
    created_at: Date;
  }[];
}

/** An SMS claimed for an attempt. */
export interface SmsToSend {
  id: string;
  invoiceId: string;
  phone: string;
  body: string;
  /** This attempt's number (1 for the first). */
  attempts: number;
}

/** One SMS of an invoice's log: sent, failed, pending (a retry waits) or logged (Sandbox). */
export interface SmsLogEntry {
  id: string;
  phone: string;
  language: string;
  body: string;
  status: 'pending' | 'sent' | 'failed' | 'logged';
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
}

/** Billing's own tables: an environment's settings and the SMS log. */
@Injectable()
export class BillingRepository {
  constructor(private readonly db: Db) {}

  async settings(environmentId: string): Promise<StoredBillingSettings> {
    return toBillingSettings(
      await this.db.one<SettingsRow>(
        sql`SELECT ${SETTINGS_COLUMNS} FROM billing_settings WHERE environment_id = ${environmentId}`,
      ),
    );
  }

  /**
   * The environment's settings, its row created when absent and locked until the transaction
   * ends, so two concurrent changes of different parts both hold.
   */
  async lockSettings(environmentId: string): Promise<StoredBillingSettings> {
    await this.db.exec(
      sql`INSERT INTO billing_settings (environment_id) VALUES (${environmentId}) ON CONFLICT DO NOTHING`,
    );
    return toBillingSettings(
      await this.db.one<SettingsRow>(
        sql`SELECT ${SETTINGS_COLUMNS} FROM billing_settings WHERE environment_id = ${environmentId} FOR UPDATE`,
      ),
    );
  }

  /** Claims a batch of invoices whose reminder time has come (`claimReminderInvoices`), with their settings. */
  claimReminders(
    now: Date,
    limit: number,
    environmentId?: string,
    clock: ClockScope = null,
  ): Promise<ReminderRow[]> {
    const statement = sql`
      SELECT r.*, s."beforeDueDays", s."afterDueDays", s."smsEnabled"
        FROM (${claimReminderInvoices(now, limit, environmentId, clock)}) r,
             LATERAL ${settingsOf(raw('r."environmentId"'))} s`;
    // At each moment of a test clock's advance, for a few invoices: planned once per connection.
    return this.db.many<ReminderRow>(clock === null ? statement : prepared(statement));
  }

  /**
   * One statement: the claimed invoices' next reminder times and steps, the reminders' events and
   * the SMS to send (or, in Sandbox, only logged). Run in the claim's transaction. `repeated`: run
   * as a prepared statement (a test clock's batches: few rows, at each moment of its advance).
   */
  async writeReminders(
    w: RemindersWrite,
    { repeated = false }: { repeated?: boolean } = {},
  ): Promise<number> {
    const statement = sql`
      WITH recorded AS (${recordRemindersCte(w.decisions)}
      ), new_events AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(w.events)}::jsonb) AS e(
          id uuid, organization_id uuid, environment_id uuid, kind text, data jsonb, created_at timestamptz)
      ), events_created AS (${insertEventsFrom(sql`new_events`)} RETURNING id
      ), sms_created AS (
        INSERT INTO sms_messages (id, organization_id, environment_id, invoice_id, phone, language, body, status,
                                  next_attempt_at, created_at, updated_at)
        SELECT id, organization_id, environment_id, invoice_id, phone, language, body, status, next_attempt_at,
               created_at, created_at
          FROM jsonb_to_recordset(${JSON.stringify(w.sms)}::jsonb) AS m(
            id uuid, organization_id uuid, environment_id uuid, invoice_id uuid, phone text, language text, body text,
            status text, next_attempt_at timestamptz, created_at timestamptz)
      )
      SELECT (SELECT count(*) FROM events_created)::int AS events`;
    const row = await this.db.one<{ events: number }>(repeated ? prepared(statement) : statement);
    return row!.events;
  }

  /**
   * Deletes the invoices of a test clock being deleted with their payment requests (and so their
   * payments), in one statement; the clock's deletion then takes its customers and subscriptions.
   */
  async deleteInvoicesOnClock(clockId: string): Promise<void> {
    await this.db.exec(sql`
      WITH ${deleteInvoicesOnClockCtes('gone', clockId)},
           gone_payment_requests AS (${deleteRequestsIn(sql`SELECT id FROM gone_requests`)})
      SELECT 1`);
  }

  /** The environment's pending invoices are looked at again by the next reminder run. */
  async rescheduleReminders(environmentId: string): Promise<void> {
    await this.db.exec(rescheduleRemindersOf(environmentId));
  }

  /**
   * Claims up to `limit` SMS due to be sent (in one environment or all): each leased for
   * `leaseMs` (a process killed mid-call loses it, and another tries again) and its attempt counted.
   */
  claimSms(now: Date, limit: number, leaseMs: number, environmentId?: string): Promise<SmsToSend[]> {
    const inEnvironment = environmentId === undefined ? empty : sql` AND environment_id = ${environmentId}`;
    return this.db.many<SmsToSend>(sql`
      UPDATE sms_messages m SET attempts = m.attempts + 1, locked_until = ${new Date(now.getTime() + leaseMs)},
                                updated_at = ${now}
       WHERE m.id IN (SELECT id FROM sms_messages
                       WHERE status = 'pending' AND next_attempt_at <= ${now}
                         AND (locked_until IS NULL OR locked_until <= ${now})${inEnvironment}
                       ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING m.id, m.invoice_id AS "invoiceId", m.phone, m.body, m.attempts`);
  }

  /**
   * The outcome of an attempt, written only while the attempt is still the SMS's latest (its
   * lease not taken over): sent, failed for good, or pending again at `retryAt`.
   */
  async recordSmsOutcome(
    m: Pick<SmsToSend, 'id' | 'attempts'>,
    outcome: { status: 'sent' | 'failed' | 'pending'; error: string | null; retryAt: Date | null },
    at: Date,
  ): Promise<void> {
    await this.db.exec(sql`
      UPDATE sms_messages SET status = ${outcome.status}, last_error = ${outcome.error},
             next_attempt_at = ${outcome.retryAt}, locked_until = NULL,
             sent_at = CASE WHEN ${outcome.status} = 'sent' THEN ${at}::timestamptz END, updated_at = ${at}
       WHERE id = ${m.id} AND attempts = ${m.attempts} AND status = 'pending'`);
  }

  /** The SMS of an invoice of the environment, oldest first (its log on the dashboard). */
  smsOfInvoice(environmentId: string, invoiceId: string): Promise<SmsLogEntry[]> {
    return this.db.many<SmsLogEntry>(sql`
      SELECT id, phone, language, body, status, attempts, last_error AS "lastError", sent_at AS "sentAt",
             created_at AS "createdAt"
        FROM sms_messages WHERE environment_id = ${environmentId} AND invoice_id = ${invoiceId}
       ORDER BY created_at, id`);
  }

  /** The environments (one, or all) whose settings dunn subscriptions: after how many days, doing what. */
  dunningEnvironments(environmentId?: string): Promise<
    {
      environmentId: string;
      organizationId: string;
      environment: EnvironmentKind;
      afterDaysOverdue: number;
      action: DunningAction;
    }[]
  > {
    const inEnvironment = environmentId === undefined ? empty : sql` AND b.environment_id = ${environmentId}`;
    return this.db.many(sql`
      SELECT b.environment_id AS "environmentId", e.organization_id AS "organizationId", e.kind AS environment,
             b.dunning_after_days_overdue AS "afterDaysOverdue", b.dunning_action AS action
        FROM billing_settings b JOIN (${ENVIRONMENTS_WITH_ORGANIZATIONS}) ON e.id = b.environment_id
       WHERE b.dunning_after_days_overdue IS NOT NULL${inEnvironment}`);
  }

  /** Writes the whole settings of the environment (its row created on the first change). */
  async saveSettings(
    environmentId: string,
    s: StoredBillingSettings,
    at: Date,
  ): Promise<StoredBillingSettings> {
    const row = await this.db.one<SettingsRow>(sql`
      INSERT INTO billing_settings AS b (environment_id, reminder_before_due_days, reminder_after_due_days, sms_enabled,
                                    dunning_after_days_overdue, dunning_action, portal_allow_cancel, updated_at)
      VALUES (${environmentId}, ${s.reminders.beforeDueDays}::int[], ${s.reminders.afterDueDays}::int[], ${s.sms.enabled},
              ${s.dunning.afterDaysOverdue}::int, ${s.dunning.action}, ${s.portal.allowCancel}, ${at})
      ON CONFLICT (environment_id) DO UPDATE SET
        reminder_before_due_days = excluded.reminder_before_due_days,
        reminder_after_due_days = excluded.reminder_after_due_days, sms_enabled = excluded.sms_enabled,
        dunning_after_days_overdue = excluded.dunning_after_days_overdue, dunning_action = excluded.dunning_action,
        portal_allow_cancel = excluded.portal_allow_cancel, updated_at = excluded.updated_at
      RETURNING ${SETTINGS_COLUMNS}`);
    return toBillingSettings(row);
  }
}
