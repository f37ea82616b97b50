import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BanksService } from './banks/banks.service';
import { PaymentMethod, Payment } from './payment.entity';
import { PaymentMethodsService } from './payment-methods.service';
import { PaymentMethodsController, PaymentsController, RefreshStatusController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { ReconciliationScheduler } from './reconciliation.scheduler';

@Module({
  imports: [TypeOrmModule.forFeature([PaymentMethod, Payment])],
  controllers: [PaymentsController, PaymentMethodsController, RefreshStatusController],
  providers: [PaymentsService, PaymentMethodsService, BanksService, ReconciliationScheduler],
  exports: [PaymentsService, PaymentMethodsService],
})
export class PaymentsModule {}
