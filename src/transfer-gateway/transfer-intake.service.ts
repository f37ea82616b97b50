import { Injectable } from '@nestjs/common';
import { Metrics } from '../common/metrics/metrics';
import { normalizePhone, parseDateTime } from '../common/validation/rules';
import { ValidationPipe } from '../common/validation/validation-pipe';
import { IncomingTransferDto } from './dto/incoming-transfer.dto';
import { Transfer } from '../transfers/transfer';
import { TransfersService } from '../transfers/transfers.service';

/** How an incoming transfer reached Khoums. */
export type TransferSource = 'notification' | 'poll';

/** What a transfer's receipt came to, as counted: its status once stored, or a duplicate. */
export type ReceiptOutcome = 'matched' | 'unmatched' | 'duplicate' | 'other';

const validation = new ValidationPipe();

/**
 * The one door of incoming transfers, notified or polled: hands each to the transfers module
 * (stored once on the bank's reference, matched in the same transaction) and counts what became
 * of it (`khoums_transfers_received_total`, `khoums_transfer_to_payment_seconds`).
 */
@Injectable()
export class TransferIntake {
  constructor(
    private readonly transfers: TransfersService,
    private readonly metrics: Metrics,
  ) {}

  /** A polled item checked as a notification's body is: the transfer, or null when it is not one. */
  static validate(item: unknown): IncomingTransferDto | null {
    try {
      return validation.transform(item, {
        type: 'body',
        metatype: IncomingTransferDto,
      }) as IncomingTransferDto;
    } catch {
      return null;
    }
  }

  async receive(
    dto: IncomingTransferDto,
    source: TransferSource,
  ): Promise<{ transfer: Transfer; created: boolean; outcome: ReceiptOutcome }> {
    const receivedAt = parseDateTime(dto.receivedAt)!;
    const result = await this.transfers.receive({
      bankReference: dto.id,
      receivingBank: dto.receivingBank,
      receivingPhone: normalizePhone(dto.receivingPhone)!,
      payerPhone: normalizePhone(dto.payerPhone)!,
      payerApp: dto.payerApp,
      amount: dto.amount,
      receivedAt,
      memo: dto.memo ?? null,
    });
    const status = result.transfer.status;
    const outcome: ReceiptOutcome = !result.created
      ? 'duplicate'
      : status === 'matched' || status === 'unmatched'
        ? status
        : 'other';
    this.metrics.transfersReceived.inc({ outcome, source });
    if (outcome === 'matched')
      this.metrics.transferMatchDelay.observe(Math.max(0, Date.now() - receivedAt.getTime()) / 1000);
    return { ...result, outcome };
  }
}
