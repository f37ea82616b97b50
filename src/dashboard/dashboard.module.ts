import { Module } from '@nestjs/common';
import { CheckoutModule } from '../checkout/checkout.module';
import { PaymentRequestsModule } from '../payment-requests/payment-requests.module';
import { PaymentsModule } from '../payments/payments.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DashboardAuthController } from './auth.controller';
import { DashboardRepository } from './dashboard.repository';
import { DashboardErrorFilter } from './dashboard.filter';
import { DashboardGuard } from './dashboard.guard';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardSurface } from './dashboard-surface';
import { DashboardKeysController } from './keys.controller';
import { DashboardMonitoringController } from './monitoring.controller';
import { DashboardNotFoundController } from './not-found.controller';
import { ReportsService } from './reports.service';
import { DashboardSessions } from './sessions.service';
import { DashboardTeamController } from './team.controller';
import { DashboardWebhooksController } from './webhooks.controller';

/** The merchant dashboard (CONTRACT.md "Merchant dashboard"): server-rendered pages under /dashboard. */
@Module({
  imports: [PaymentRequestsModule, PaymentsModule, CheckoutModule, WebhooksModule],
  controllers: [
    DashboardAuthController,
    DashboardMonitoringController,
    DashboardKeysController,
    DashboardWebhooksController,
    DashboardTeamController,
    // Last: its catch-all route answers the paths no other page has.
    DashboardNotFoundController,
  ],
  providers: [
    DashboardRepository,
    DashboardSessions,
    DashboardSurface,
    DashboardRenderer,
    DashboardGuard,
    DashboardErrorFilter,
    ReportsService,
  ],
})
export class DashboardModule {}
