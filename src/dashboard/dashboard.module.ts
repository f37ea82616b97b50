import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { CheckoutModule } from '../checkout/checkout.module';
import { CustomersModule } from '../customers/customers.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { PaymentRequestsModule } from '../payment-requests/payment-requests.module';
import { PaymentsModule } from '../payments/payments.module';
import { PricesModule } from '../prices/prices.module';
import { ProductsModule } from '../products/products.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { GoingLiveModule } from '../going-live/going-live.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DashboardAuthController } from './auth.controller';
import { DashboardCustomersController } from './customers.controller';
import { LedgerModule } from '../ledger/ledger.module';
import { PayoutsModule } from '../payouts/payouts.module';
import { DashboardPaymentLinksController } from './payment-links.controller';
import { DashboardPaymentMethodsController } from './payment-methods.controller';
import { DashboardPaymentRequestController } from './payment-request.controller';
import { PaymentLinksModule } from '../payment-links/payment-links.module';
import { DashboardPayoutsController } from './payouts.controller';
import { DashboardSettlementController } from './settlement.controller';
import { DashboardAccountsController } from './accounts.controller';
import { OnboardingController } from './onboarding.controller';
import { DashboardRepository } from './dashboard.repository';
import { DashboardExportsController } from './exports.controller';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardSurface } from './dashboard-surface';
import { DashboardGoLiveController } from './go-live.controller';
import { DashboardInvoicesController } from './invoices.controller';
import { DashboardKeysController } from './keys.controller';
import { DashboardMonitoringController } from './monitoring.controller';
import { DashboardNotFoundController } from './not-found.controller';
import { DashboardProductsController } from './products.controller';
import { ReportsService } from './reports.service';
import { DashboardSessions } from './sessions.service';
import { DashboardSubscriptionsController } from './subscriptions.controller';
import { DashboardBillingSettingsController } from './billing-settings.controller';
import { TransfersModule } from '../transfers/transfers.module';
import { DashboardTeamController } from './team.controller';
import { DashboardTestClocksController } from './test-clocks.controller';
import { TestClocksModule } from '../test-clocks/test-clocks.module';
import { DashboardTransfersController } from './transfers.controller';
import { DashboardWebhooksController } from './webhooks.controller';

/** The merchant dashboard (docs/dashboard.md): server-rendered pages under /dashboard. */
@Module({
  imports: [
    PaymentRequestsModule,
    PaymentsModule,
    CheckoutModule,
    WebhooksModule,
    ProductsModule,
    PricesModule,
    CustomersModule,
    SubscriptionsModule,
    InvoicesModule,
    GoingLiveModule,
    BillingModule,
    LedgerModule,
    PayoutsModule,
    PaymentLinksModule,
    TransfersModule,
    TestClocksModule,
  ],
  controllers: [
    DashboardBillingSettingsController,
    DashboardAuthController,
    DashboardMonitoringController,
    DashboardPaymentRequestController,
    DashboardPaymentLinksController,
    DashboardPaymentMethodsController,
    DashboardTransfersController,
    DashboardPayoutsController,
    DashboardSettlementController,
    DashboardExportsController,
    DashboardKeysController,
    DashboardWebhooksController,
    DashboardTeamController,
    DashboardProductsController,
    DashboardCustomersController,
    DashboardSubscriptionsController,
    DashboardInvoicesController,
    DashboardTestClocksController,
    DashboardGoLiveController,
    OnboardingController,
    DashboardAccountsController,
    // Last: its catch-all route answers the paths no other page has.
    DashboardNotFoundController,
  ],
  providers: [DashboardRepository, DashboardSessions, DashboardSurface, DashboardRenderer, ReportsService],
})
export class DashboardModule {}
