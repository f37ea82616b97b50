import { Get, Param } from '@nestjs/common';
import { ONBOARDING_TEXTS } from '../common/i18n/onboarding-texts';
import { LedgerService } from '../ledger/ledger.service';
import { ConnectedAccountsService } from '../organizations/connected-accounts.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { PaymentsService } from '../payments/payments.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { fill, formatCount } from './format';
import { paymentsList } from './payments-list';

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
    private readonly payments: PaymentsService,
    private readonly methods: PaymentMethodsService,
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
        paymentsHref: `/dashboard/accounts/${a.id}/payments`,
        paymentsLabel: fill(p.accountPaymentsLink, { name: a.name }),
      });
    }
    this.renderer.render(d, 'accounts', p.accountsTitle, { p, accounts });
  }

  /**
   * One connected account's payments in the environment the session shows, newest first, searched
   * and paged like /dashboard/payments; read only. The 404 page unless the account is connected to
   * the user's organization and that organization is still a platform: another organization's id,
   * a sibling platform's account, the platform itself, and any id seen from a non-platform.
   */
  @Get(':id/payments')
  async accountPayments(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const p = ONBOARDING_TEXTS[d.lang];
    const scope = d.scope;
    const account = await this.accounts.connectedAccount(scope.organizationId, idOr404(id).toLowerCase());
    if (!account) throw dashboardError(DashboardError.NotFound);
    const environmentId = await this.organizations.environmentId(account.id, scope.environment);
    if (!environmentId) throw dashboardError(DashboardError.NotFound);
    const base = `/dashboard/accounts/${account.id}/payments`;
    const list = await paymentsList(d, this.payments, this.methods, environmentId, base, { linkRows: false });
    const heading = fill(p.accountPaymentsTitle, { name: account.name });
    this.renderer.render(d, 'account-payments', heading, {
      ...list,
      p,
      heading,
      account: { id: account.id, name: account.name },
    });
  }
}
