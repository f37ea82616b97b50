import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { BillingRepository, SmsToSend } from './billing.repository';
import { SmsGateway } from './sms-gateway';
import { maskPhone } from './sms-text';

const BATCH = 50;

/**
 * Sends the reminders' SMS waiting to go (docs/sms-gateway.md), on SendSmsJob's tick: each
 * instance claims a batch (FOR UPDATE SKIP LOCKED, then a lease), calls the gateway outside any
 * transaction, and records each outcome: sent, failed (refused, or SMS_MAX_ATTEMPTS reached), or
 * tried again after SMS_RETRY_DELAY_MS, doubled each time. The message id is the gateway's
 * idempotency key, so an attempt whose answer was lost does not send it twice.
 */
@Injectable()
export class SmsSender {
  private readonly logger = new Logger('Sms');

  constructor(
    private readonly repo: BillingRepository,
    private readonly gateway: SmsGateway,
    private readonly config: AppConfig,
  ) {}

  /** Sends what is due by `now`, batch after batch, in one environment or all; the outcomes counted. */
  async sendDue(options: { environmentId?: string; now?: Date } = {}): Promise<Record<string, number>> {
    const counts = { sent: 0, failed: 0, retry: 0 };
    for (;;) {
      const now = options.now ?? new Date();
      const batch = await this.repo.claimSms(
        now,
        BATCH,
        this.config.SMS_TIMEOUT_MS * 2,
        options.environmentId,
      );
      const outcomes = await Promise.all(batch.map((m) => this.attempt(m, now)));
      for (const o of outcomes) counts[o]++;
      if (batch.length < BATCH) return counts;
    }
  }

  private async attempt(m: SmsToSend, now: Date): Promise<'sent' | 'failed' | 'retry'> {
    const outcome = await this.gateway.send(m);
    const at = new Date();
    const to = maskPhone(m.phone);
    if (outcome.kind === 'sent') {
      await this.repo.recordSmsOutcome(m, { status: 'sent', error: null, retryAt: null }, at);
      this.logger.log({ smsId: m.id, invoiceId: m.invoiceId, to, attempt: m.attempts }, 'SMS sent');
      return 'sent';
    }
    const last = outcome.kind === 'rejected' || m.attempts >= this.config.SMS_MAX_ATTEMPTS;
    const delay = this.config.SMS_RETRY_DELAY_MS * 2 ** (m.attempts - 1);
    await this.repo.recordSmsOutcome(
      m,
      {
        status: last ? 'failed' : 'pending',
        error: outcome.error,
        retryAt: last ? null : new Date(now.getTime() + delay),
      },
      at,
    );
    this.logger.warn(
      { smsId: m.id, invoiceId: m.invoiceId, to, attempt: m.attempts, error: outcome.error },
      last ? 'SMS failed' : 'SMS failed; tried again later',
    );
    return last ? 'failed' : 'retry';
  }
}
