import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PaymentsModule } from '../payments/payments.module';
import { PayoutRun } from './payout-run';
import { PayoutsController, PayoutScheduleController, SandboxPayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { MakePayoutsJob } from './make-payouts.job';
import { PayoutsService } from './payouts.service';
import { SandboxPayoutsGuard } from './sandbox-payouts.guard';
import { TransfersService } from './transfers';

@Module({
  imports: [OrganizationsModule, PaymentsModule, LedgerModule],
  controllers: [PayoutsController, PayoutScheduleController, SandboxPayoutsController],
  providers: [
    PayoutsRepository,
    PayoutsService,
    PayoutRun,
    MakePayoutsJob,
    TransfersService,
    SandboxPayoutsGuard,
  ],
  exports: [PayoutsService, PayoutRun, PayoutsRepository],
})
export class PayoutsModule {}
