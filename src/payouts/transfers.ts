import { Injectable } from '@nestjs/common';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { performance } from 'node:perf_hooks';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/config';
import type { EnvironmentKind } from '../organizations/tenant';
import { BankUnavailableError, withDeadline } from '../payments/banks/bank';

/**
 * The transfer operation of the bank gateway (docs/bank-gateway.md "Transfers"): money sent from
 * Khoums to a merchant's payout account. Sandbox: no network; an IBAN ending in 0001 fails.
 */

export interface TransferRequest {
  /** Our payout id: the gateway's idempotency reference, so a transfer asked twice is sent once. */
  reference: string;
  amount: number;
  bank: string;
  holderName: string;
  iban: string;
  description: string;
}

/** What the gateway says about a transfer. */
export type TransferAnswer =
  | { status: 'paid'; bankReference: string | null }
  | { status: 'in_transit'; bankReference: string | null }
  | { status: 'failed'; reason: string };

export interface TransferAdapter {
  /** Sends the transfer, or (the same reference again) answers its current state. */
  transfer(request: TransferRequest, signal: AbortSignal): Promise<TransferAnswer>;
}

/** The JSON a gateway answers with. */
interface GatewayTransfer {
  reference?: unknown;
  status?: unknown;
  bankReference?: unknown;
  reason?: unknown;
}

/** `POST {base}/transfers`, idempotent on the payout id. */
export class GatewayTransfers implements TransferAdapter {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  async transfer(request: TransferRequest, signal: AbortSignal): Promise<TransferAnswer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'idempotency-key': request.reference,
    };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let res: Response;
    try {
      res = await fetch(new URL('transfers', this.baseUrl.replace(/\/?$/, '/')), {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...request, currency: 'MRU' }),
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw new BankUnavailableError('no answer in time', 'timeout');
      throw new BankUnavailableError(`connection failed: ${(err as Error).message}`, 'error');
    }
    if (res.status >= 500) {
      await res.body?.cancel().catch(() => undefined);
      throw new BankUnavailableError(`gateway answered ${res.status}`, 'error');
    }
    let json: GatewayTransfer | null = null;
    try {
      json = (await res.json()) as GatewayTransfer;
    } catch {
      if (signal.aborted) throw new BankUnavailableError('no answer in time', 'timeout');
    }
    if (res.status >= 400)
      return { status: 'failed', reason: `gateway refused the transfer (${res.status})` };
    if (res.status !== 200 || !json || json.reference !== request.reference)
      throw new BankUnavailableError(`unexpected answer (HTTP ${res.status})`, 'error');
    const bankReference = typeof json.bankReference === 'string' ? json.bankReference.slice(0, 200) : null;
    switch (json.status) {
      case 'paid':
        return { status: 'paid', bankReference };
      case 'in_transit':
        return { status: 'in_transit', bankReference };
      case 'failed':
        return {
          status: 'failed',
          reason: typeof json.reason === 'string' ? json.reason.slice(0, 200) : 'failed',
        };
      default:
        throw new BankUnavailableError('unexpected transfer status', 'error');
    }
  }
}

/**
 * The Sandbox's transfers: an IBAN ending in 0001 fails, any other is paid at once. The bank
 * reference is the payout's whole id: its first characters are only its time (two payouts made
 * in the same second share them), and the same payout asked again keeps its reference.
 */
export class SandboxTransfers implements TransferAdapter {
  async transfer(request: TransferRequest): Promise<TransferAnswer> {
    return Promise.resolve(
      request.iban.endsWith('0001')
        ? { status: 'failed', reason: 'rejected by the sandbox bank' }
        : { status: 'paid', bankReference: `sbx_payout_${request.reference.replace(/-/g, '')}` },
    );
  }
}

const tracer = trace.getTracer('khoums');

/** Picks the environment's transfer adapter and puts the bank time-out on every call. */
@Injectable()
export class TransfersService {
  private readonly sandbox = new SandboxTransfers();
  private readonly gateway: GatewayTransfers | null;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.gateway = config.PAYOUT_GATEWAY_URL
      ? new GatewayTransfers(config.PAYOUT_GATEWAY_URL, config.PAYOUT_GATEWAY_API_KEY)
      : null;
  }

  /** One transfer call, timed and traced; throws `BankUnavailableError` when there is no usable answer. */
  transfer(environment: EnvironmentKind, request: TransferRequest): Promise<TransferAnswer> {
    return tracer.startActiveSpan(
      'bank transfer',
      { attributes: { 'khoums.environment': environment } },
      async (span) => {
        const started = performance.now();
        let outcome = 'error';
        try {
          const adapter = environment === 'sandbox' ? this.sandbox : this.gateway;
          if (!adapter)
            throw new BankUnavailableError(
              'no payout gateway is configured (PAYOUT_GATEWAY_URL)',
              'not-configured',
            );
          const timeout =
            environment === 'sandbox' ? this.config.SANDBOX_BANK_TIMEOUT_MS : this.config.BANK_TIMEOUT_MS;
          const answer = await withDeadline(timeout, (signal) => adapter.transfer(request, signal));
          outcome = answer.status;
          span.setAttribute('khoums.bank.outcome', answer.status);
          return answer;
        } catch (err) {
          if (err instanceof BankUnavailableError) outcome = err.kind;
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          throw err;
        } finally {
          this.metrics.bankCallDuration.observe(
            { method: 'payout', operation: 'transfer', outcome },
            (performance.now() - started) / 1000,
          );
          span.end();
        }
      },
    );
  }
}
