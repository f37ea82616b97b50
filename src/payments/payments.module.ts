import { Module } from '@nestjs/common';
import { PaymentRequestsModule } from '../payment-requests/payment-requests.module';
import { BanksService } from './banks/banks.service';
import { PayService } from './pay.service';
import { PaymentMethodsService } from './payment-methods.service';
import { PaymentMethodsController, PaymentsController, RefreshStatusController } from './payments.controller';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { ReconcilePaymentsJob } from './reconcile-payments.job';
import { ReconciliationService } from './reconciliation.service';
import { PaymentPayouts } from './payment-payouts';
import { PaymentSettlement, SettlementExtensions } from './settlement';
import { TransferSimulation } from './transfer-simulation';
import { TransferClaims } from './transfer-claims';
import { ExpireTransferClaimsJob } from './expire-transfer-claims.job';

@Module({
  imports: [PaymentRequestsModule],
  controllers: [PaymentsController, PaymentMethodsController, RefreshStatusController],
  providers: [
    PaymentsRepository,
    PaymentsService,
    PayService,
    PaymentMethodsService,
    PaymentSettlement,
    SettlementExtensions,
    ReconciliationService,
    ReconcilePaymentsJob,
    BanksService,
    PaymentPayouts,
    TransferSimulation,
    TransferClaims,
    ExpireTransferClaimsJob,
  ],
  exports: [
    PaymentsService,
    PaymentsRepository,
    PayService,
    PaymentMethodsService,
    ReconciliationService,
    SettlementExtensions,
    PaymentSettlement,
    PaymentPayouts,
    BanksService,
    TransferSimulation,
    TransferClaims,
  ],
})
export class PaymentsModule {}
