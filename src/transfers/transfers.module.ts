import { Module } from '@nestjs/common';
import { PaymentRequestsModule } from '../payment-requests/payment-requests.module';
import { PaymentsModule } from '../payments/payments.module';
import { SandboxTransfersController, TransfersController } from './transfers.controller';
import { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

/** Incoming transfers of the national switch and their matching (docs/transfers.md). */
@Module({
  imports: [PaymentsModule, PaymentRequestsModule],
  controllers: [TransfersController, SandboxTransfersController],
  providers: [TransfersService, TransfersRepository],
  exports: [TransfersService],
})
export class TransfersModule {}
