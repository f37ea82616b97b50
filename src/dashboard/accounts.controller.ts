import { Get } from '@nestjs/common';
import { ONBOARDING_TEXTS } from '../common/i18n/onboarding-texts';
import { LedgerService } from '../ledger/ledger.service';
import { ConnectedAccountsService } from '../organizations/connected-accounts.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { formatCount } from './format';

/** At most this many accounts on the page (newest first); the API lists them all. */
const SHOWN = 100;

/**
 * A platform's connected accounts (docs/platforms.md): each with its verification and its balance
 * in the environment the session shows. Another organization gets the page saying it is no platform.
 */
@DashboardPages('accounts')
export class DashboardAccountsController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly accounts: ConnectedAccountsService,
    private readonly organizations: OrganizationsService,
    private readonly ledger: LedgerService,
  ) {}

  @Get()
  async list(@Dash() d: DashboardRequest): Promise<void> {
    const p = ONBOARDING_TEXTS[d.lang];
    const scope = d.scope;
    if (!(await this.accounts.isPlatform(scope.organizationId)))
      return this.renderer.error(d, 404, p.accountsTitle, p.notPlatform);
    const rows = await this.accounts.accountsOf(scope.organizationId, SHOWN);
    const accounts = [];
    for (const a of rows) {
      const environmentId = await this.organizations.environmentId(a.id, scope.environment);
      const balance = environmentId
        ? await this.ledger.balance({
            organizationId: a.id,
            environmentId,
            environment: scope.environment,
            keyKind: 'secret',
            keyId: '',
            verification: a.verification,
          })
        : { available: 0, pending: 0 };
      accounts.push({
        id: a.id,
        name: a.name,
        email: a.email,
        verification: a.verification,
        verificationLabel: p[`verification_${a.verification}`],
        available: `${formatCount(balance.available, d.lang)} MRU`,
        pending: `${formatCount(balance.pending, d.lang)} MRU`,
      });
    }
    this.renderer.render(d, 'accounts', p.accountsTitle, { p, accounts });
  }
}
