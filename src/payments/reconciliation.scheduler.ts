import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/config';
import { DatabaseAvailability } from '../database/availability';
import { ReconciliationService } from './reconciliation.service';

const JOB = 'payments-reconciliation';

/**
 * Every RECONCILE_INTERVAL_MS (0: off), asks the banks about payments left pending (a bank that
 * answered "pending", or a process that died between the bank's answer and the commit). The
 * claim in `reconcile` makes several instances safe; a tick never overlaps the previous one.
 */
@Injectable()
export class ReconciliationScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReconciliationScheduler.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly reconciliation: ReconciliationService,
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
    this.running = this.reconciliation
      .reconcile()
      .then((r) => {
        if (r.claimed > 0) this.logger.log(r, 'reconciliation pass');
      })
      .catch((err: unknown) => {
        if (!this.availability.failed(err)) this.logger.error({ err }, 'reconciliation pass failed');
      })
      .finally(() => {
        this.running = null;
      });
  }
}
