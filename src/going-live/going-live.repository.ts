import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import type { OrganizationJson } from '../organizations/account';
import { insertEvent } from '../webhooks/outbox';

/**
 * The `account-updated` event: the organization's record, written to each of its environments
 * (an endpoint of either receives it when it lists the kind), in the transaction of the change.
 */
@Injectable()
export class GoingLiveRepository {
  constructor(private readonly db: Db) {}

  async recordAccountUpdated(environmentIds: string[], account: OrganizationJson): Promise<void> {
    for (const environmentId of environmentIds) {
      await this.db.exec(
        insertEvent({ organizationId: account.id, environmentId, kind: 'account-updated', data: account }),
      );
    }
  }
}
