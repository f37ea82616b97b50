import { Module } from '@nestjs/common';
import { PaymentRequestsController } from './payment-requests.controller';
import { PaymentRequestsRepository } from './payment-requests.repository';
import { PaymentRequestsService } from './payment-requests.service';

@Module({
  controllers: [PaymentRequestsController],
  providers: [PaymentRequestsService, PaymentRequestsRepository],
  exports: [PaymentRequestsService, PaymentRequestsRepository],
})
export class PaymentRequestsModule {}
