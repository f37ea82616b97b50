import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { timeOrderedId } from '../database/time-ordered-id';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import { toInvoiceJson } from '../invoices/invoice';
import { BillingRepository, RemindersWrite, ReminderRow } from './billing.repository';
import { decideReminder } from './reminder-days';
import { reminderMessages } from './reminder-messages';
import { maskPhone } from './sms-text';
import type { ClockScope } from '../test-clocks/test-clocks.fragments';

/**
 * The reminder run (docs/billing.md "Reminders, SMS and dunning"): batch after batch, each one
 * transaction that claims pending invoices whose reminder time has come (FOR UPDATE SKIP LOCKED),
 * decides for each the latest reminder day reached and not yet sent, and writes in one statement
 * their next reminder time, the `invoice-upcoming` / `invoice-overdue` events and the SMS. The
 * step of the reminder sent is stored on the invoice in that statement, so any number of runs on
 * any number of instances send each reminder day of an invoice once, and a run killed mid-batch
 * leaves nothing of that batch.
 */
@Injectable()
export class ReminderRun implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Reminders');
  private stopping = false;
  private readonly inFlight = new Set<Promise<number>>();

  constructor(
    private readonly db: Db,
    private readonly repo: BillingRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Sends the reminders due by `now` (default: when called), in one environment or all, of the
   * invoices of `clock` (default: the real clock's, on no test clock); how many.
   */
  run(options: { environmentId?: string; now?: Date; clock?: ClockScope } = {}): Promise<number> {
    const run = this.batches(options.now ?? new Date(), options.environmentId, options.clock ?? null).finally(
      () => this.inFlight.delete(run),
    );
    this.inFlight.add(run);
    return run;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * `BILLING_CONCURRENCY` sequences of batches at once, as the billing run does (one batch
   * alternates between this process and PostgreSQL; the claims make concurrent batches disjoint),
   * summed. A failing sequence stops the others after their current batch, and the run fails once
   * none is left writing. Within a caller's transaction (a POST with an Idempotency-Key), one
   * sequence: a second would claim, on the same connection, the rows the first has locked.
   */
  private async batches(now: Date, environmentId: string | undefined, clock: ClockScope): Promise<number> {
    let sent = 0;
    // A test clock's run is one moment of its advance, as the billing run's (BillingRun): its first
    // batch alone, the other sequences only once that one came back full.
    if (clock !== null) {
      const first = await this.batch(now, this.config.BILLING_BATCH_SIZE, environmentId, clock);
      sent += first.sent;
      if (first.claimed < this.config.BILLING_BATCH_SIZE || this.stopping) return sent;
    }
    const concurrency = this.db.inTransaction ? 1 : this.config.BILLING_CONCURRENCY;
    const run = { failed: false };
    const sequences = Array.from({ length: concurrency }, () =>
      this.sequence(now, environmentId, clock, run).catch((err: unknown) => {
        run.failed = true;
        throw err;
      }),
    );
    for (const s of await Promise.allSettled(sequences)) {
      if (s.status === 'rejected') throw s.reason;
      sent += s.value;
    }
    return sent;
  }

  private async sequence(
    now: Date,
    environmentId: string | undefined,
    clock: ClockScope,
    run: { failed: boolean },
  ): Promise<number> {
    const size = this.config.BILLING_BATCH_SIZE;
    let sent = 0;
    while (!this.stopping && !run.failed) {
      const batch = await this.batch(now, size, environmentId, clock);
      sent += batch.sent;
      if (batch.claimed < size) break;
    }
    return sent;
  }

  /** One transaction of four statements: BEGIN, the claim, the write, COMMIT. */
  private async batch(
    now: Date,
    limit: number,
    environmentId: string | undefined,
    clock: ClockScope,
  ): Promise<{ claimed: number; sent: number }> {
    const { claimed, write } = await this.db.transaction(async () => {
      const rows = await this.repo.claimReminders(now, limit, environmentId, clock);
      const w = this.decide(rows, now);
      if (rows.length > 0) await this.repo.writeReminders(w, { repeated: clock !== null });
      return { claimed: rows.length, write: w };
    });
    // After the commit: what was logged instead of sent is known to have happened.
    for (const m of write.sms.filter((s) => s.status === 'logged'))
      this.logger.log(
        { invoiceId: m.invoice_id, to: maskPhone(m.phone), language: m.language, message: m.body },
        'sandbox SMS (not sent)',
      );
    return { claimed, sent: write.events.length };
  }

  private decide(rows: ReminderRow[], now: Date): RemindersWrite {
    const w: RemindersWrite = { decisions: [], events: [], sms: [] };
    for (const r of rows) {
      const d = r.dueDate ? decideReminder(r.dueDate, r, r.reminderStep, now) : { send: null, nextAt: null };
      w.decisions.push({ id: r.id, next_at: d.nextAt, step: d.send?.step ?? null });
      if (!d.send) continue;
      const invoice = toInvoiceJson(r, this.config.publicUrl);
      const message = reminderMessages({
        merchantName: r.merchantName,
        amount: invoice.amountDue,
        dueDate: r.dueDate!,
        checkoutUrl: invoice.checkoutUrl,
        reminder: d.send,
      });
      const upcoming = d.send.kind === 'upcoming';
      w.events.push({
        id: timeOrderedId(),
        organization_id: r.organizationId,
        environment_id: r.environmentId,
        kind: upcoming ? 'invoice-upcoming' : 'invoice-overdue',
        data: {
          ...invoice,
          ...(upcoming ? { daysUntilDue: d.send.days } : { daysOverdue: d.send.days }),
          message,
        },
        created_at: now,
      });
      if (r.smsEnabled && r.customerPhone) {
        const sandbox = r.environment === 'sandbox';
        w.sms.push({
          id: timeOrderedId(),
          organization_id: r.organizationId,
          environment_id: r.environmentId,
          invoice_id: r.id,
          phone: r.customerPhone,
          language: r.customerLanguage,
          body: message[r.customerLanguage],
          status: sandbox ? 'logged' : 'pending',
          next_attempt_at: sandbox ? null : now,
          created_at: now,
        });
      }
    }
    return w;
  }
}
