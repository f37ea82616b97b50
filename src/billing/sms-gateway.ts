import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';

/** What an attempt to hand an SMS to the gateway came to (docs/sms-gateway.md). */
export type SmsAttemptOutcome =
  | { kind: 'sent' }
  /** The gateway refused the message (a 4xx other than 429): trying again would not help. */
  | { kind: 'rejected'; error: string }
  /** No answer, a 5xx or a 429: the same message (same id) is tried again later. */
  | { kind: 'retry'; error: string };

/** The client of the SMS gateway protocol (docs/sms-gateway.md). */
@Injectable()
export class SmsGateway {
  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return this.config.SMS_GATEWAY_URL !== undefined;
  }

  /** Sends one SMS; `id` is its idempotency key, so a retry after a lost answer sends it once. */
  async send(m: { id: string; phone: string; body: string }): Promise<SmsAttemptOutcome> {
    const base = this.config.SMS_GATEWAY_URL;
    if (!base) return { kind: 'rejected', error: 'SMS_GATEWAY_URL is not set' };
    let res: Response;
    try {
      res = await fetch(new URL('messages', base.replace(/\/?$/, '/')), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': m.id,
          ...(this.config.SMS_GATEWAY_API_KEY
            ? { authorization: `Bearer ${this.config.SMS_GATEWAY_API_KEY}` }
            : {}),
        },
        body: JSON.stringify({ id: m.id, to: `+222${m.phone}`, text: m.body }),
        signal: AbortSignal.timeout(this.config.SMS_TIMEOUT_MS),
      });
      await res.arrayBuffer();
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      return { kind: 'retry', error: timedOut ? 'time-out' : 'gateway unreachable' };
    }
    if (res.status === 200 || res.status === 201 || res.status === 202) return { kind: 'sent' };
    if (res.status >= 400 && res.status < 500 && res.status !== 429)
      return { kind: 'rejected', error: `gateway answered ${res.status}` };
    return { kind: 'retry', error: `gateway answered ${res.status}` };
  }
}
