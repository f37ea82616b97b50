import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/config';
import { BankUnavailableError, withDeadline } from '../payments/banks/bank';
import { BankGatewayClient } from '../payments/banks/gateway-client';
import { PollCursorsRepository } from './poll-cursors.repository';
import { TransferIntake } from './transfer-intake.service';

/** The bank gateways whose incoming transfers are polled: every configured one (docs/bank-gateway.md). */
const BANKS = ['BANKILY', 'MASRIVI', 'SEDAD'] as const;

/** Pages read from one gateway in one pass at most (then the next tick goes on). */
const MAX_PAGES = 20;

export interface PollResult {
  /** Transfers read from the gateways (duplicates included). */
  read: number;
  /** Stored by this pass (the others were already stored, by a notification or another poll). */
  stored: number;
  matched: number;
  /** Items that were not a valid transfer (skipped, logged). */
  invalid: number;
  /** Gateways another instance was polling (skipped). */
  busy: number;
  /** Gateways that gave no usable answer. */
  unavailable: number;
}

interface Gateway {
  /** The cursor's key: the bank's name, lower case (the first bank of a shared gateway URL). */
  name: string;
  client: BankGatewayClient;
}

/**
 * Polling of incoming transfers (docs/bank-gateway.md "Incoming transfers"): asks each bank gateway
 * `GET /transfers?since=<cursor>` and hands what it answers to the intake, so a transfer whose
 * notification was lost is still found. One instance at a time polls a gateway: it takes the
 * gateway's lease (`transfer_poll_cursors`), stores a page's transfers, and only then moves the
 * cursor, while it still holds the lease. A crash between the two reads the page again, which is
 * harmless: the transfers are stored once, on (receivingBank, bankReference).
 */
@Injectable()
export class TransferPolling {
  private readonly logger = new Logger(TransferPolling.name);
  private readonly gateways: Gateway[];
  /** This instance's name in the leases. */
  private readonly holder = randomUUID();

  constructor(
    private readonly config: AppConfig,
    private readonly cursors: PollCursorsRepository,
    private readonly intake: TransferIntake,
  ) {
    const byUrl = new Map<string, Gateway>();
    for (const bank of BANKS) {
      const url = config[`BANK_${bank}_URL`];
      if (url && !byUrl.has(url))
        byUrl.set(url, {
          name: bank.toLowerCase(),
          client: new BankGatewayClient(url, config[`BANK_${bank}_API_KEY`]),
        });
    }
    this.gateways = [...byUrl.values()];
  }

  /** The lease of a gateway: longer than a page can take (its call and its transfers). */
  private get leaseMs(): number {
    return 2 * this.config.BANK_TIMEOUT_MS + 60_000;
  }

  /** One pass over every gateway; `stopping` says when to stop between pages (the drain). */
  async pollAll(stopping: () => boolean = () => false): Promise<PollResult> {
    const result: PollResult = { read: 0, stored: 0, matched: 0, invalid: 0, busy: 0, unavailable: 0 };
    for (const gateway of this.gateways) {
      if (stopping()) break;
      await this.pollOne(gateway, result, stopping);
    }
    return result;
  }

  private async pollOne(gateway: Gateway, result: PollResult, stopping: () => boolean): Promise<void> {
    const claim = await this.cursors.claim(gateway.name, this.holder, this.leaseMs);
    if (!claim) {
      result.busy++;
      return;
    }
    let cursor = claim.cursor;
    try {
      for (let page = 0; page < MAX_PAGES && !stopping(); page++) {
        const answer = await withDeadline(this.config.BANK_TIMEOUT_MS, (signal) =>
          gateway.client.incomingTransfers(cursor, signal),
        );
        for (const item of answer.transfers) {
          result.read++;
          const dto = TransferIntake.validate(item);
          if (!dto) {
            result.invalid++;
            this.logger.warn(
              { gateway: gateway.name },
              'an incoming transfer of the gateway is invalid; skipped',
            );
            continue;
          }
          const received = await this.intake.receive(dto, 'poll');
          if (received.created) result.stored++;
          if (received.outcome === 'matched') result.matched++;
        }
        if (answer.cursor !== cursor) {
          // Lost the lease (ran out, taken): the holder reads from the cursor as it was.
          if (!(await this.cursors.advance(gateway.name, this.holder, answer.cursor, this.leaseMs))) return;
          cursor = answer.cursor;
        }
        if (!answer.hasMore) break;
      }
    } catch (err) {
      if (!(err instanceof BankUnavailableError)) throw err;
      result.unavailable++;
      this.logger.warn(
        { gateway: gateway.name, reason: err.message },
        'incoming transfers: gateway unavailable',
      );
    } finally {
      await this.cursors.release(gateway.name, this.holder);
    }
  }
}
