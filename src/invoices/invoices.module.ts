import { Module } from '@nestjs/common';
import { CheckoutModule } from '../checkout/checkout.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PaymentsModule } from '../payments/payments.module';
import { InvoiceReminders } from './invoice-reminders';
import { InvoiceSubscriptions } from './invoice-subscriptions';
import { InvoicePageController, InvoicePaymentStatusController } from './invoice-page.controller';
import { InvoicePageRenderer } from './invoice-page.renderer';
import { InvoicePageService } from './invoice-page.service';
import { InvoicesController } from './invoices.controller';
import { InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';

@Module({
  imports: [PaymentsModule, CheckoutModule, OrganizationsModule],
  controllers: [InvoicesController, InvoicePaymentStatusController, InvoicePageController],
  providers: [
    InvoicesService,
    InvoicesRepository,
    InvoicePageService,
    InvoicePageRenderer,
    InvoiceSubscriptions,
    InvoiceReminders,
  ],
  exports: [InvoicesService, InvoicesRepository, InvoiceSubscriptions, InvoiceReminders],
})
export class InvoicesModule {}
