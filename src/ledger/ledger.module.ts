import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InvoicesModule } from '../invoices/invoices.module';
import { PaymentsModule } from '../payments/payments.module';
import { LedgerChecks } from './ledger-checks';
import { LedgerController } from './ledger.controller';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { LedgerSettlement } from './ledger-settlement';
import { RefundsController } from './refunds.controller';
import { ReconcileRefundsJob } from './reconcile-refunds.job';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';
import { SettlementReportRepository } from './settlement-report.repository';

@Module({
  imports: [PaymentsModule, InvoicesModule, IdempotencyModule],
  controllers: [LedgerController, RefundsController],
  providers: [
    LedgerChecks,
    LedgerRepository,
    LedgerService,
    LedgerSettlement,
    RefundsRepository,
    RefundsService,
    ReconcileRefundsJob,
    SettlementReportRepository,
  ],
  exports: [LedgerChecks, LedgerRepository, LedgerService, RefundsService],
})
export class LedgerModule {}
