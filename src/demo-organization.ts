import type { INestApplicationContext } from '@nestjs/common';
import { CLI_ACTOR } from './admin/audit-log.repository';
import { OperatorActionsService } from './admin/operator-actions.service';
import { Db } from './database/db';
import { CreatedOrganization, OrganizationsService } from './organizations/organizations.service';

/**
 * The demo organization's payout account: approved, so that docs/payouts.md can be followed with
 * the printed login (`POST /payouts` pays it in the Sandbox, whose transfers pay any IBAN not
 * ending in 0001). A valid Mauritanian IBAN that belongs to nobody.
 */
export const DEMO_PAYOUT_ACCOUNT = {
  bank: 'BNM',
  holderName: 'Demo Merchant',
  iban: 'MR1300020001010000123456753',
} as const;

/**
 * The demo organization of a first start (README "Quick start"): verified, with its payout account
 * set as `org:create --payout-iban …` sets one (audited as the command line's).
 */
export function createDemoOrganization(app: INestApplicationContext): Promise<CreatedOrganization> {
  return app.get(Db).transaction(async () => {
    const created = await app
      .get(OrganizationsService)
      .create({ name: 'Demo Merchant', email: 'demo@khoums.local' });
    await app
      .get(OperatorActionsService)
      .setApprovedPayoutAccount(CLI_ACTOR, created.organizationId, DEMO_PAYOUT_ACCOUNT);
    return created;
  });
}
