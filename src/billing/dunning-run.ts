import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import type { EnvironmentKind } from '../organizations/tenant';
import type { SubscriptionStatus } from '../subscriptions/subscription';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { DunningAction } from './billing-settings';
import { BillingRepository } from './billing.repository';
import type { ClockScope } from '../test-clocks/test-clocks.fragments';

const DAY_MS = 86_400_000;
const BATCH = 100;

/** The subscriptions each action applies to (a cancelled one is not cancelled again, a paused one not paused). */
const DUNNABLE: Record<DunningAction, readonly SubscriptionStatus[]> = {
  cancel: ['trialing', 'active', 'paused', 'pending_cancellation'],
  pause: ['trialing', 'active'],
};

/**
 * Dunning (docs/billing.md "Reminders, SMS and dunning"): in each environment whose settings set
 * `dunning.afterDaysOverdue`, a subscription with an invoice still unpaid that many days after its
 * due date is cancelled (now, its unpaid invoices voided) or paused, with its
 * `subscription-updated`. Each change is one transaction that first records, under the
 * subscription's lock, the due date it is for (`dunned_through`): concurrent runs and a run killed
 * mid-way dunn a subscription once per overdue invoice, and a merchant who resumes it is not
 * overruled until another invoice goes unpaid as long.
 */
@Injectable()
export class DunningRun {
  constructor(
    private readonly db: Db,
    private readonly billing: BillingRepository,
    private readonly subscriptionsRepo: SubscriptionsRepository,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  /**
   * Dunns what is due by `now` (default: when called), in one environment or all, of the
   * subscriptions of `clock` (default: the real clock's, on no test clock); how many changed.
   */
  async run(options: { environmentId?: string; now?: Date; clock?: ClockScope } = {}): Promise<number> {
    const now = options.now ?? new Date();
    const clock = options.clock ?? null;
    let changed = 0;
    for (const env of await this.billing.dunningEnvironments(options.environmentId)) {
      const cutoff = new Date(now.getTime() - env.afterDaysOverdue * DAY_MS);
      const statuses = DUNNABLE[env.action];
      for (;;) {
        const candidates = await this.subscriptionsRepo.dunningCandidates(
          env.environmentId,
          cutoff,
          statuses,
          BATCH,
          clock,
        );
        let progress = 0;
        // On a test clock, as of the advance's moment (the clock's own time is the API's).
        const at = clock === null ? undefined : now;
        for (const c of candidates) if (await this.dunn(env, c, statuses, at)) progress++;
        changed += progress;
        // Fewer than a batch: none left. None changed: the rest moved on under another run.
        if (candidates.length < BATCH || progress === 0) break;
      }
    }
    return changed;
  }

  private dunn(
    env: {
      environmentId: string;
      organizationId: string;
      environment: EnvironmentKind;
      action: DunningAction;
    },
    c: { id: string; due: Date },
    statuses: readonly SubscriptionStatus[],
    at: Date | undefined,
  ): Promise<boolean> {
    return this.db.transaction(async () => {
      if (!(await this.subscriptionsRepo.markDunned(env.environmentId, c.id, c.due, statuses))) return false;
      const scope = {
        organizationId: env.organizationId,
        environmentId: env.environmentId,
        environment: env.environment,
      };
      if (env.action === 'cancel') await this.subscriptions.cancel(scope, c.id, false, at);
      else await this.subscriptions.pause(scope, c.id, at);
      return true;
    });
  }
}
