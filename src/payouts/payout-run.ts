import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import { utcDayOf } from './payout-schedule';
import { PayoutsRepository } from './payouts.repository';
import { PAYOUT_LEASE_MS, PayoutsService } from './payouts.service';

/** Environments one transaction of the run claims and pays. */
const CLAIM_BATCH = 100;
/**
 * Claims a run makes at once, each in its own transaction (so on its own pooled connection):
 * making a payout is a few short statements, each waiting on a round trip, so one sequence of
 * claims leaves the database mostly idle. Their claims are disjoint (SKIP LOCKED).
 */
const CLAIM_SEQUENCES = 4;
/** Payouts one claim leases to be sent; they are sent `SEND_CONCURRENCY` at a time. */
const SEND_BATCH = 50;
const SEND_CONCURRENCY = 8;
/** Leases a run sends at once (their payouts are disjoint: each claim leases its own). */
const SEND_SEQUENCES = 2;

/** What a payout run did (the Sandbox route's `data`). */
export class PayoutRunJson {
  @ApiProperty({ type: 'integer', description: 'Payouts made by this run' })
  payoutsCreated!: number;
  @ApiProperty({
    type: 'integer',
    description: 'Payouts whose status this run changed (paid, in_transit, failed)',
  })
  payoutsUpdated!: number;
}

/**
 * The payout run (docs/payouts.md "The payout job"), in two steps:
 *
 * 1. From PAYOUT_HOUR_UTC, every environment due today (daily, or weekly on its day) and not yet
 *    considered today is claimed, batch after batch (CLAIM_SEQUENCES sequences of batches at once,
 *    their claims disjoint), each batch one transaction that marks its
 *    environments considered (FOR UPDATE SKIP LOCKED on their schedule rows) and makes their
 *    payouts: runs on any number of instances claim disjoint environments, and a run killed
 *    mid-batch leaves nothing of it, so each environment is paid once a day.
 * 2. Every payout still with the bank whose time has come is leased, sent (idempotently on its id)
 *    and settled: a payout whose sender died is sent again by the next run once its lease ends.
 */
@Injectable()
export class PayoutRun implements BeforeApplicationShutdown {
  private stopping = false;
  private readonly inFlight = new Set<Promise<PayoutRunJson>>();

  constructor(
    private readonly db: Db,
    private readonly repo: PayoutsRepository,
    private readonly payouts: PayoutsService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Pays what is due at `now` (default: when called), in all environments or in one: one
   * environment's run (the Sandbox route) pays it now, whatever the hour and its day.
   */
  run(options: { environmentId?: string; now?: Date } = {}): Promise<PayoutRunJson> {
    const run = this.steps(options.now ?? new Date(), options.environmentId).finally(() =>
      this.inFlight.delete(run),
    );
    this.inFlight.add(run);
    return run;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.inFlight]);
  }

  private async steps(now: Date, environmentId: string | undefined): Promise<PayoutRunJson> {
    const payoutsCreated =
      environmentId !== undefined || now.getUTCHours() >= this.config.PAYOUT_HOUR_UTC
        ? await this.makePayouts(now, environmentId)
        : 0;
    return { payoutsCreated, payoutsUpdated: await this.sendPayouts(environmentId) };
  }

  private async makePayouts(now: Date, environmentId: string | undefined): Promise<number> {
    const sequences = environmentId !== undefined || this.db.inTransaction ? 1 : CLAIM_SEQUENCES;
    const made = await Promise.all(
      Array.from({ length: sequences }, () => this.makePayoutsInSequence(now, environmentId)),
    );
    return made.reduce((a, b) => a + b, 0);
  }

  /** Claims after claims until one comes back short: the payouts made. */
  private async makePayoutsInSequence(now: Date, environmentId: string | undefined): Promise<number> {
    const { day, weekday } = utcDayOf(now);
    let created = 0;
    while (!this.stopping) {
      const batch = await this.db.transaction(async () => {
        const claimed = await this.repo.claimDue(day, weekday, CLAIM_BATCH, environmentId);
        let made = 0;
        for (const environment of claimed) {
          const payout = await this.payouts.open(environment.environmentId, environment.organizationId, {
            minimumAmount: environment.minimumAmount,
            automatic: true,
          });
          if (typeof payout !== 'string') made += 1;
        }
        return { claimed: claimed.length, made };
      });
      created += batch.made;
      if (batch.claimed < CLAIM_BATCH || environmentId !== undefined) break;
    }
    return created;
  }

  private async sendPayouts(environmentId: string | undefined): Promise<number> {
    const sequences = environmentId !== undefined || this.db.inTransaction ? 1 : SEND_SEQUENCES;
    const updated = await Promise.all(
      Array.from({ length: sequences }, () => this.sendPayoutsInSequence(environmentId)),
    );
    return updated.reduce((a, b) => a + b, 0);
  }

  /** Leases after leases until one comes back short: the payouts whose status changed. */
  private async sendPayoutsInSequence(environmentId: string | undefined): Promise<number> {
    let updated = 0;
    while (!this.stopping) {
      const claimed = await this.repo.claimUnsettled(SEND_BATCH, PAYOUT_LEASE_MS, environmentId);
      for (let i = 0; i < claimed.length; i += SEND_CONCURRENCY) {
        const sent = await Promise.all(
          claimed.slice(i, i + SEND_CONCURRENCY).map((p) => this.payouts.send(p)),
        );
        updated += sent.filter((p, j) => p.status !== claimed[i + j].status).length;
      }
      if (claimed.length < SEND_BATCH) break;
    }
    return updated;
  }
}
