import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { CustomersModule } from '../customers/customers.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { PortalPageController } from './portal-page.controller';
import { PortalRenderer } from './portal.renderer';
import { PortalRepository } from './portal.repository';
import { PortalService } from './portal.service';
import { PortalSessionsController } from './portal-sessions.controller';
import { PortalSurface } from './portal-surface';

/** The customer portal: links for merchants (API) and the customers' pages (/portal). */
@Module({
  imports: [OrganizationsModule, CustomersModule, InvoicesModule, SubscriptionsModule, BillingModule],
  controllers: [PortalSessionsController, PortalPageController],
  providers: [PortalRepository, PortalService, PortalSurface, PortalRenderer],
})
export class PortalModule {}
