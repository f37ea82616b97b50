import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { PricesModule } from '../prices/prices.module';
import { Renewals } from './renewals';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';

@Module({
  imports: [CustomersModule, PricesModule],
  controllers: [SubscriptionsController],
  providers: [SubscriptionsService, SubscriptionsRepository, Renewals],
  exports: [Renewals, SubscriptionsService, SubscriptionsRepository],
})
export class SubscriptionsModule {}
