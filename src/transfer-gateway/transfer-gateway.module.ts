import { Module } from '@nestjs/common';
import { TransfersModule } from '../transfers/transfers.module';
import { BankNotificationsController } from './bank-notifications.controller';
import { BankSignatureGuard } from './bank-signature.guard';
import { PollCursorsRepository } from './poll-cursors.repository';
import { PollTransfersJob } from './poll-transfers.job';
import { TransferIntake } from './transfer-intake.service';
import { TransferPolling } from './transfer-polling.service';

/**
 * The incoming side of the bank-gateway protocol (docs/bank-gateway.md "Incoming transfers"):
 * signed notifications and polling, both handing each transfer to the transfers module.
 */
@Module({
  imports: [TransfersModule],
  controllers: [BankNotificationsController],
  providers: [BankSignatureGuard, TransferIntake, TransferPolling, PollCursorsRepository, PollTransfersJob],
  exports: [TransferPolling, TransferIntake],
})
export class TransferGatewayModule {}
