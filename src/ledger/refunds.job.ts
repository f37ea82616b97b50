import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/config';
import { DatabaseAvailability } from '../database/availability';
import { RefundsService } from './refunds.service';

const JOB = 'refunds-reconciliation';

/**
 * With the payments' reconciliation (every RECONCILE_INTERVAL_MS, 0: off), sends again the refunds
 * left pending for RECONCILE_MIN_AGE_MS: a bank that answered "pending" or did not answer, or a
 * process that died between committing a refund and the bank's answer. The claim makes several
 * instances safe; the bank's idempotency reference (the refund's id) makes a second send harmless;
 * a tick never overlaps the previous one.
 */
@Injectable()
export class RefundsJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RefundsJob.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly refunds: RefundsService,
    private readonly registry: SchedulerRegistry,
    private readonly config: AppConfig,
    private readonly availability: DatabaseAvailability,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.RECONCILE_INTERVAL_MS === 0) return;
    this.registry.addInterval(
      JOB,
      setInterval(() => this.tick(), this.config.RECONCILE_INTERVAL_MS),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.registry.doesExist('interval', JOB)) this.registry.deleteInterval(JOB);
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.refunds
      .resolvePending(this.config.RECONCILE_MIN_AGE_MS)
      .then((r) => {
        if (r.claimed > 0) this.logger.log(r, 'refunds pass');
      })
      .catch((err: unknown) => {
        if (!this.availability.failed(err)) this.logger.error({ err }, 'refunds pass failed');
      })
      .finally(() => {
        this.running = null;
      });
  }
}
