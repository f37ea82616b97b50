import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { LedgerController } from './ledger.controller';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { LedgerSettlement } from './ledger-settlement';

@Module({
  imports: [PaymentsModule],
  controllers: [LedgerController],
  providers: [LedgerRepository, LedgerService, LedgerSettlement],
  exports: [LedgerRepository, LedgerService],
})
export class LedgerModule {}
