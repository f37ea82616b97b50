import { Injectable } from '@nestjs/common';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { performance } from 'node:perf_hooks';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/config';
import type { EnvironmentKind } from '../organizations/tenant';
import {
  BankUnavailableError,
  TransferAdapter,
  TransferAnswer,
  TransferRequest,
  withDeadline,
} from '../payments/banks/bank';
import { BankGatewayClient } from '../payments/banks/gateway-client';

/**
 * The transfer operation of the bank gateway (docs/bank-gateway.md "Transfers"): money sent from
 * Khoums to a merchant's payout account, through the gateway's one client (BankGatewayClient).
 * Sandbox: no network; an IBAN ending in 0001 fails.
 */

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
  private readonly gateway: BankGatewayClient | null;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.gateway = config.PAYOUT_GATEWAY_URL
      ? new BankGatewayClient(config.PAYOUT_GATEWAY_URL, config.PAYOUT_GATEWAY_API_KEY)
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
