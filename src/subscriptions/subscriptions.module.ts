import { Module } from '@nestjs/common';
import { CouponsModule } from '../coupons/coupons.module';
import { CustomersModule } from '../customers/customers.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { PricesModule } from '../prices/prices.module';
import { TestClocksModule } from '../test-clocks/test-clocks.module';
import { Renewals } from './renewals';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsOfInvoices } from './subscriptions-of-invoices';
import { SubscriptionsService } from './subscriptions.service';

@Module({
  imports: [CustomersModule, CouponsModule, PricesModule, InvoicesModule, TestClocksModule],
  controllers: [SubscriptionsController],
  providers: [SubscriptionsService, SubscriptionsRepository, Renewals, SubscriptionsOfInvoices],
  exports: [Renewals, SubscriptionsService, SubscriptionsRepository],
})
export class SubscriptionsModule {}
