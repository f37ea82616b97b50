import { Injectable } from '@nestjs/common';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { performance } from 'node:perf_hooks';
import { Metrics } from '../../common/metrics/metrics';
import { AppConfig } from '../../config/config';
import type { EnvironmentKind } from '../../organizations/tenant';
import {
  BankAdapter,
  BankAnswer,
  BankUnavailableError,
  ChargeRequest,
  PaymentMethodType,
  RefundAnswer,
  RefundRequest,
  StatusRequest,
  withDeadline,
} from './bank';
import { BankGatewayClient } from './gateway-client';
import { SandboxBank } from './sandbox-bank';

const GATEWAY_SETTINGS = {
  bankily: ['BANK_BANKILY_URL', 'BANK_BANKILY_API_KEY'],
  masrivi: ['BANK_MASRIVI_URL', 'BANK_MASRIVI_API_KEY'],
  sedad: ['BANK_SEDAD_URL', 'BANK_SEDAD_API_KEY'],
} as const satisfies Partial<Record<PaymentMethodType, readonly [keyof AppConfig, keyof AppConfig]>>;

const tracer = trace.getTracer('khoums');

type BankOperation = 'charge' | 'status' | 'refund' | 'refund-status';

/**
 * Picks the adapter of a bank app for an environment (Sandbox: the simulator; Production: the
 * gateway configured for that bank) and puts the environment's time-out on every call.
 */
@Injectable()
export class BanksService {
  private readonly adapters = new Map<string, BankAdapter | null>();

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  charge(
    environment: EnvironmentKind,
    method: PaymentMethodType,
    request: ChargeRequest,
  ): Promise<BankAnswer> {
    return this.call(environment, method, 'charge', (bank, signal) => bank.charge(request, signal));
  }

  status(
    environment: EnvironmentKind,
    method: PaymentMethodType,
    request: StatusRequest,
  ): Promise<BankAnswer> {
    return this.call(environment, method, 'status', (bank, signal) => bank.status(request, signal));
  }

  /** Sends money back to a payer (docs/bank-gateway.md, refunds). */
  refund(
    environment: EnvironmentKind,
    method: PaymentMethodType,
    request: RefundRequest,
  ): Promise<RefundAnswer> {
    return this.call(environment, method, 'refund', (bank, signal) => bank.refund(request, signal));
  }

  refundStatus(
    environment: EnvironmentKind,
    method: PaymentMethodType,
    request: RefundRequest,
  ): Promise<RefundAnswer> {
    return this.call(environment, method, 'refund-status', (bank, signal) =>
      bank.refundStatus(request, signal),
    );
  }

  /**
   * One call, timed and traced (a span `bank <operation>`): its outcome is the bank's answer, or
   * why there was none (timeout, error, not-configured).
   */
  private call<A extends { status: string }>(
    environment: EnvironmentKind,
    method: PaymentMethodType,
    operation: BankOperation,
    send: (bank: BankAdapter, signal: AbortSignal) => Promise<A>,
  ): Promise<A> {
    return tracer.startActiveSpan(
      `bank ${operation}`,
      { attributes: { 'khoums.bank.method': method, 'khoums.environment': environment } },
      async (span) => {
        try {
          const answer = await this.timedCall(environment, method, operation, send);
          span.setAttribute('khoums.bank.outcome', answer.status);
          return answer;
        } catch (err) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }

  private async timedCall<A extends { status: string }>(
    environment: EnvironmentKind,
    method: PaymentMethodType,
    operation: BankOperation,
    send: (bank: BankAdapter, signal: AbortSignal) => Promise<A>,
  ): Promise<A> {
    const started = performance.now();
    let outcome = 'error';
    try {
      const bank = this.adapter(environment, method);
      const answer = await withDeadline(this.timeoutMs(environment), (signal) => send(bank, signal));
      outcome = answer.status;
      return answer;
    } catch (err) {
      if (err instanceof BankUnavailableError) outcome = err.kind;
      throw err;
    } finally {
      this.metrics.bankCallDuration.observe(
        { method, operation, outcome },
        (performance.now() - started) / 1000,
      );
    }
  }

  private timeoutMs(environment: EnvironmentKind): number {
    return environment === 'sandbox' ? this.config.SANDBOX_BANK_TIMEOUT_MS : this.config.BANK_TIMEOUT_MS;
  }

  private adapter(environment: EnvironmentKind, method: PaymentMethodType): BankAdapter {
    const key = `${environment}:${method}`;
    if (!this.adapters.has(key)) this.adapters.set(key, this.create(environment, method));
    const adapter = this.adapters.get(key);
    if (!adapter)
      throw new BankUnavailableError(
        `no gateway is configured for ${method} (set BANK_${method.toUpperCase()}_URL)`,
        'not-configured',
      );
    return adapter;
  }

  private create(environment: EnvironmentKind, method: PaymentMethodType): BankAdapter | null {
    if (environment === 'sandbox') return new SandboxBank(method);
    const settings = (
      GATEWAY_SETTINGS as Partial<Record<PaymentMethodType, readonly [keyof AppConfig, keyof AppConfig]>>
    )[method];
    if (!settings) return null;
    const url = this.config[settings[0]];
    const apiKey = this.config[settings[1]];
    return typeof url === 'string'
      ? new BankGatewayClient(url, typeof apiKey === 'string' ? apiKey : undefined)
      : null;
  }
}
