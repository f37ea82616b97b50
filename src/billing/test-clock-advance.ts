import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/config';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { PaymentsRepository } from '../payments/payments.repository';
import { TransferClaims } from '../payments/transfer-claims';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import type { TestClock } from '../test-clocks/test-clock';
import { TestClocksRepository } from '../test-clocks/test-clocks.repository';
import { BillingRun } from './billing-run';
import { BillingRepository } from './billing.repository';
import { DunningRun } from './dunning-run';
import { ReminderRun } from './reminder-run';

/** Which of a clock's objects are due at a moment: subscriptions, invoices (reminders, dunning), transfer claims. */
interface DueAtMoment {
  billing: boolean;
  invoices: boolean;
  claims: boolean;
}

/** What a moment needs of the environment's billing settings. */
interface MomentSettings {
  /** `dunning.afterDaysOverdue`; null: no dunning. */
  dunningDays: number | null;
  /** Whether any reminder day is set. */
  reminders: boolean;
}

/** What one pass of the advance job did. */
export interface AdvanceCounts {
  clocksReady: number;
  moments: number;
  invoicesCreated: number;
  reminders: number;
  dunned: number;
  /** Transfer payments failed as `expired` (their claim ended on the clock). */
  claimsExpired: number;
}

/**
 * Advancing Sandbox test clocks (docs/billing.md "Testing with test clocks"). An advancing clock
 * is claimed with a lease in the database (`TestClocksRepository.claimAdvancing`): one instance
 * works on it at a time, and one killed mid-advance leaves it to another once the lease runs out.
 *
 * The advance goes, in order, through each moment between the clock's time and the time asked for
 * at which something of its objects is due — a subscription's period, trial end or expiry
 * (`due_at`), an invoice's reminder time, a pending invoice's dunning time, the end of a pending
 * transfer payment's claim and grace — and at each runs what the real clock's runs do, as of that
 * moment and on the clock's objects only: transfer claim expiry, the billing run, the reminder run
 * (SMS logged, as Sandbox's are), dunning. Then it records the moment as done (`position`). The
 * runs' own claims (a payment settled only from `pending`, a subscription's due date, an invoice's
 * reminder step, a subscription's `dunned_through`) make a moment re-run after a crash, or run by
 * two instances, do nothing twice; the next moment is found from the objects' state, so a moment
 * left half done is where the advance resumes. At the time asked for the clock is `ready`, with
 * `test-clock-ready`.
 *
 * Transfer claims: a transfer payment of a clock's invoice has its claim on the clock's time
 * (docs/transfers.md "Claims on a test clock"), so claim expiry runs first at a moment: a claim
 * that ended by then is `expired` before the reminder and dunning runs look at its invoice, as the
 * real expiry job (every 30 s) has long done by a reminder's or dunning's time.
 * Payouts do not depend on test clocks: they pay out the environment's balance on the real clock.
 */
@Injectable()
export class TestClockAdvance implements BeforeApplicationShutdown {
  /** This instance's name in the claims. */
  private readonly worker = randomUUID();
  private stopping = false;

  constructor(
    private readonly clocks: TestClocksRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly settings: BillingRepository,
    private readonly billing: BillingRun,
    private readonly reminders: ReminderRun,
    private readonly dunning: DunningRun,
    private readonly payments: PaymentsRepository,
    private readonly claims: TransferClaims,
    private readonly config: AppConfig,
  ) {}

  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  /** Advances the clocks waiting, one after another, until none is left unclaimed. */
  async run(): Promise<AdvanceCounts> {
    const counts: AdvanceCounts = {
      clocksReady: 0,
      moments: 0,
      invoicesCreated: 0,
      reminders: 0,
      dunned: 0,
      claimsExpired: 0,
    };
    while (!this.stopping) {
      const clock = await this.clocks.claimAdvancing(this.worker, new Date(), this.leaseEnd());
      if (!clock) break;
      if (await this.advance(clock, counts)) counts.clocksReady++;
    }
    return counts;
  }

  /** Advances a claimed clock to its frozen time; false when stopped or the claim was lost. */
  private async advance(clock: TestClock, counts: AdvanceCounts): Promise<boolean> {
    let position = clock.position;
    // What is due by the clock's time itself first (written behind the API's back, or left by an
    // advance that died): a moment the runs' claims make safe to run again.
    await this.moment(clock, position, await this.momentSettings(clock), counts);
    while (position < clock.frozenTime) {
      if (this.stopping) return false;
      // The settings once per moment, for finding the next one and for its dunning.
      const settings = await this.momentSettings(clock);
      const { at: next, due } = await this.nextMoment(clock, position, settings.dunningDays);
      // At the time asked for, every run, as at the first moment: whatever the look-ups could not
      // foresee (a subscription made due behind them) is caught by then.
      await this.moment(clock, next, settings, counts, next < clock.frozenTime ? due : undefined);
      if (!(await this.clocks.moveTo(clock.id, this.worker, next, this.leaseEnd()))) return false;
      position = next;
    }
    return this.clocks.finish(clock, this.worker, new Date());
  }

  /**
   * The next moment after `position`, up to the frozen time, at which something of the clock's
   * objects is due, and which of them are due then.
   */
  private async nextMoment(
    clock: TestClock,
    position: Date,
    dunningDays: number | null,
  ): Promise<{ at: Date; due: DueAtMoment }> {
    const [billing, invoices, claims] = [
      await this.subscriptions.nextDueOnClock(clock.id, position),
      await this.invoices.nextMomentOnClock(clock.id, position, dunningDays),
      await this.payments.nextClaimExpiryOnClock(clock.id, position),
    ];
    const times = [clock.frozenTime, billing, invoices, claims].filter((t): t is Date => t !== null);
    const at = new Date(Math.min(...times.map(Number)));
    const by = (t: Date | null) => t !== null && t <= at;
    return { at, due: { billing: by(billing), invoices: by(invoices), claims: by(claims) } };
  }

  /** What a moment needs of the environment's billing settings, read once per moment. */
  private async momentSettings(clock: TestClock): Promise<MomentSettings> {
    const { dunning, reminders } = await this.settings.settings(clock.environmentId);
    return {
      dunningDays: dunning.afterDaysOverdue,
      reminders: reminders.beforeDueDays.length + reminders.afterDueDays.length > 0,
    };
  }

  /**
   * What the real clock's runs would do at `at`, on the clock's objects only: those of `due` (all
   * when not given), so the hundreds of moments of a year do not each run four claims that find
   * nothing. The reminder run also runs after the billing run made invoices at `at` when the
   * environment has reminder days (a new invoice may be due its first reminder at once); dunning
   * only when the environment has it (a new invoice is not yet overdue).
   */
  private async moment(
    clock: TestClock,
    at: Date,
    settings: MomentSettings,
    counts: AdvanceCounts,
    due: DueAtMoment = { billing: true, invoices: true, claims: true },
  ): Promise<void> {
    const scope = { environmentId: clock.environmentId, now: at, clock: clock.id };
    counts.moments++;
    if (due.claims) counts.claimsExpired += await this.claims.expire({ asOf: at, clock: clock.id });
    const invoiced = due.billing ? (await this.billing.run(scope)).invoicesCreated : 0;
    counts.invoicesCreated += invoiced;
    if (due.invoices || (invoiced > 0 && settings.reminders))
      counts.reminders += await this.reminders.run(scope);
    if (due.invoices && settings.dunningDays !== null) counts.dunned += await this.dunning.run(scope);
  }

  private leaseEnd(): Date {
    return new Date(Date.now() + this.config.TEST_CLOCK_LEASE_MS);
  }
}
