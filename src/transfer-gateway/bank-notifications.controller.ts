import { Body, Controller, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/decorators';
import { API, Post } from '../common/http/routes';
import { NoRateLimit } from '../rate-limits/decorators';
import { toTransferJson, TransferJson } from '../transfers/transfer';
import { BankSignatureGuard } from './bank-signature.guard';
import { IncomingTransferDto } from './dto/incoming-transfer.dto';
import { TransferIntake } from './transfer-intake.service';

/**
 * What the receiving banks' gateways send Khoums (docs/bank-gateway.md "Incoming transfers"): no
 * API key, a signature instead (BankSignatureGuard). Not part of the merchants' API document.
 */
@ApiExcludeController()
@NoRateLimit()
@Controller(`${API}/bank-notifications`)
export class BankNotificationsController {
  constructor(private readonly intake: TransferIntake) {}

  /** 200 with the transfer, also when it was already stored (the bank may send it again). */
  @Post('transfers')
  @Public()
  @UseGuards(BankSignatureGuard)
  async transfer(@Body() body: IncomingTransferDto): Promise<{ data: TransferJson }> {
    const { transfer } = await this.intake.receive(body, 'notification');
    return { data: toTransferJson(transfer) };
  }
}
