import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import type { EnvironmentScope } from '../organizations/tenant';
import { TestClocksRepository } from '../test-clocks/test-clocks.repository';
import { TestClocksService } from '../test-clocks/test-clocks.service';
import { BillingRepository } from './billing.repository';

/**
 * Deleting a Sandbox test clock, in one transaction: its invoices with their payment requests,
 * then the clock, whose customers go with it, and their subscriptions with them.
 */
@Injectable()
export class TestClockDeletion {
  constructor(
    private readonly db: Db,
    private readonly clocks: TestClocksService,
    private readonly clocksRepo: TestClocksRepository,
    private readonly billing: BillingRepository,
  ) {}

  delete(tenant: EnvironmentScope, id: string): Promise<{ id: string; deleted: true }> {
    return this.db.transaction(async () => {
      await this.clocks.clockOf(tenant, id); // 400 in Production, 404 when unknown
      await this.billing.deleteInvoicesOnClock(id);
      await this.clocksRepo.delete(tenant.environmentId, id);
      return { id, deleted: true as const };
    });
  }
}
