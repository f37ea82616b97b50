import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import { Renewals } from '../subscriptions/renewals';
import type { ClockScope } from '../test-clocks/test-clocks.fragments';

/** What a billing run did (the sandbox route's `data`). */
export class BillingRunJson {
  @ApiProperty({ type: 'integer', description: 'Invoices created, one per billed period' })
  invoicesCreated!: number;
  @ApiProperty({
    type: 'integer',
    description: 'Subscriptions whose state changed (renewed, expired, ended)',
  })
  subscriptionsUpdated!: number;
}

/** What the sequences of one run share: whether one failed, and the subscriptions left still due. */
interface RunState {
  failed: boolean;
  /**
   * Subscriptions a batch of this run updated and left due (further behind than one pass bills):
   * the only ones a later batch of the run updates again. Few, so the run's memory stays flat.
   */
  stillDue: Set<string>;
}

/**
 * The billing run (docs/billing.md): every subscription due by the time
 * the run starts is renewed, batch after batch, each batch one transaction that claims its
 * subscriptions with FOR UPDATE SKIP LOCKED and writes their invoices, payment requests, events
 * and new state in one statement (`Renewals.renewDueBatch`). So any number of runs, on any number
 * of instances, bill each period once; a run killed mid-way leaves whole batches, and the next run
 * continues. On shutdown a run stops after its current batches.
 *
 * A run bills `BILLING_CONCURRENCY` batches at once: one batch alternates between this process
 * (deciding the renewals, building the rows) and PostgreSQL (writing them), so a single sequence of
 * batches leaves one of them idle half the time. The claims already make concurrent batches
 * disjoint, whether they come from this run, another run or another instance: each batch is a
 * transaction of its own, except within a caller's transaction, where the run bills one at a time.
 */
@Injectable()
export class BillingRun implements BeforeApplicationShutdown {
  private stopping = false;
  private readonly inFlight = new Set<Promise<BillingRunJson>>();

  constructor(
    private readonly renewals: Renewals,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly db: Db,
  ) {}

  /**
   * Bills what is due by `now` (default: when called), in one environment or all, of the objects
   * of `clock` (default: the real clock's, on no test clock).
   */
  run(options: { environmentId?: string; now?: Date; clock?: ClockScope } = {}): Promise<BillingRunJson> {
    const run = this.concurrentBatches(
      options.now ?? new Date(),
      options.environmentId,
      options.clock ?? null,
    ).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
    return run;
  }

  /** Lets runs in progress finish their current batches before the database goes away. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * `BILLING_CONCURRENCY` sequences of batches, summed. A failing sequence stops the others after
   * their current batch, and the run fails only once none is left writing (so a shutdown that
   * waits for the run waits for all of them).
   */
  private async concurrentBatches(
    now: Date,
    environmentId: string | undefined,
    clock: ClockScope,
  ): Promise<BillingRunJson> {
    const run: RunState = { failed: false, stillDue: new Set() };
    const total: BillingRunJson = { invoicesCreated: 0, subscriptionsUpdated: 0 };
    // A test clock's run is one moment of its advance (TestClockAdvance), hundreds of them per
    // advance, each with a few subscriptions due: its first batch alone, the others only once that
    // one came back full (more is due), instead of sequences that would each claim nothing.
    if (clock !== null) {
      const first = await this.batch(now, environmentId, clock, run, total);
      if (!first || this.stopping) return total;
    }
    // Called within a transaction (a POST with an Idempotency-Key runs in one), every batch joins
    // it, on its one connection: a second sequence would claim the rows the first locked (its own
    // locks skip nothing) and renew them again. One at a time there, each seeing the last's writes.
    const concurrency = this.db.inTransaction ? 1 : this.config.BILLING_CONCURRENCY;
    const sequences = Array.from({ length: concurrency }, () =>
      this.batches(now, environmentId, clock, run).catch((err: unknown) => {
        run.failed = true;
        throw err;
      }),
    );
    const settled = await Promise.allSettled(sequences);
    for (const s of settled) {
      if (s.status === 'rejected') throw s.reason;
      total.invoicesCreated += s.value.invoicesCreated;
      total.subscriptionsUpdated += s.value.subscriptionsUpdated;
    }
    return total;
  }

  private async batches(
    now: Date,
    environmentId: string | undefined,
    clock: ClockScope,
    run: RunState,
  ): Promise<BillingRunJson> {
    const total: BillingRunJson = { invoicesCreated: 0, subscriptionsUpdated: 0 };
    while (!this.stopping && !run.failed)
      if (!(await this.batch(now, environmentId, clock, run, total))) break;
    return total;
  }

  /** One batch, counted in `total`: whether another may find something due. */
  private async batch(
    now: Date,
    environmentId: string | undefined,
    clock: ClockScope,
    run: RunState,
    total: BillingRunJson,
  ): Promise<boolean> {
    const size = this.config.BILLING_BATCH_SIZE;
    const batch = await this.renewals.renewDueBatch(now, size, environmentId, clock);
    total.invoicesCreated += batch.invoicesCreated;
    this.metrics.billingInvoices.inc(batch.invoicesCreated);
    // A subscription further behind than one pass bills is updated by several batches (of this
    // sequence or another): it counts once.
    for (const id of batch.updated) if (!run.stillDue.has(id)) total.subscriptionsUpdated++;
    for (const id of batch.stillDue) run.stillDue.add(id);
    // Fewer than a full batch: nothing more is due that another batch does not hold already. A
    // batch that changed nothing, and skipped nothing another batch had just moved on, cannot
    // happen (a claimed subscription is due), but must not loop.
    return !(batch.claimed < size || (batch.subscriptionsUpdated === 0 && batch.skipped === 0));
  }
}
