import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PaymentRequestsController } from './payment-requests.controller';
import { PaymentRequestsRepository } from './payment-requests.repository';
import { PaymentRequestsService } from './payment-requests.service';

@Module({
  imports: [IdempotencyModule],
  controllers: [PaymentRequestsController],
  providers: [PaymentRequestsService, PaymentRequestsRepository],
  exports: [PaymentRequestsService, PaymentRequestsRepository],
})
export class PaymentRequestsModule {}
