import { StreamableFile } from '@nestjs/common';
import { csvFile } from '../common/http/csv';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import type { KeysetPage, KeysetQuery } from '../database/keyset';
import { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import type { ListPaymentsQuery } from './dto/payment.dto';
import {
  GimtelInstructionsJson,
  instructionsOf,
  Payment,
  PAYMENT_CSV_COLUMNS,
  PaymentJson,
  PaymentStatusJson,
  TransferOutcome,
} from './payment';
import { TransferSimulation } from './transfer-simulation';
import type { PaymentListItem, PaymentSearch } from './payment-search';
import { PaymentError, paymentError } from './payments.errors';
import { PaymentsRepository } from './payments.repository';
import { PaymentSettlement } from './settlement';

/** Payment reads and the Sandbox's simulated transfers. */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly repo: PaymentsRepository,
    private readonly requests: PaymentRequestsRepository,
    private readonly settlement: PaymentSettlement,
    private readonly transfers: TransferSimulation,
  ) {}

  async get(tenant: Tenant, id: string): Promise<PaymentJson> {
    const payment = await this.repo.paymentJson(tenant.environmentId, id);
    if (!payment) throw paymentError(PaymentError.NotFound);
    return payment;
  }

  /** The newest payment of a request of the environment (the hosted pages' transfer instructions), or undefined. */
  latestOfRequest(environmentId: string, paymentRequestId: string): Promise<Payment | undefined> {
    return this.repo.latestPaymentOfRequest(environmentId, paymentRequestId);
  }

  /** A payment of the environment, or undefined. */
  findInEnvironment(environmentId: string, id: string): Promise<PaymentJson | undefined> {
    return this.repo.paymentJson(environmentId, id);
  }

  /** A keyset page of the dashboard's search of the environment's payments, newest first, with their bank app. */
  search(
    environmentId: string,
    filter: PaymentSearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<PaymentListItem>> {
    return this.repo.search(environmentId, filter, page);
  }

  /** Every payment of a request of the environment, newest first, with its bank app. */
  ofRequest(environmentId: string, paymentRequestId: string): Promise<PaymentListItem[]> {
    return this.repo.ofRequest(environmentId, paymentRequestId);
  }

  /** Newest first; filters combine. Two statements (page and count), whatever the page size. */
  async list(tenant: Tenant, q: ListPaymentsQuery): Promise<ListEnvelope<PaymentJson>> {
    const page = pageOf(q);
    const { items, total } = await this.repo.list(tenant.environmentId, q, page);
    return envelope(items, total, page);
  }

  /** A payment of the key's environment as GET /payment/:id/status shows it. */
  async status(tenant: Tenant, id: string): Promise<PaymentStatusJson> {
    const p = await this.get(tenant, id);
    return { id: p.id, status: p.status, referenceId: p.referenceId, claimExpiresAt: p.claimExpiresAt };
  }

  /**
   * What the customer must do to pay a transfer payment of the environment (the hosted pages show
   * it): its instructions while it is pending; null for any other payment, or none.
   */
  async instructionsFor(environmentId: string, paymentId: string): Promise<GimtelInstructionsJson | null> {
    const payment = await this.repo.byId(paymentId);
    if (!payment || payment.environmentId !== environmentId || payment.status !== 'pending') return null;
    return instructionsOf(payment);
  }

  /** Every payment the filters select, as CSV, streamed. */
  csv(tenant: Tenant, q: ListPaymentsQuery): StreamableFile {
    return csvFile('payments', PAYMENT_CSV_COLUMNS, this.repo.listAll(tenant.environmentId, q));
  }

  /**
   * Sandbox only: the customer's bank settles a pending payment now (`completed` by default).
   * Repeating the same outcome returns the payment unchanged (`skipped`); any other change of a
   * settled payment is 409 `Payment is not pending`. `matched`: this call completed the payment;
   * `unmatched`: this call failed it.
   */
  async simulateTransfer(
    tenant: Tenant,
    id: string,
    outcome: 'completed' | 'failed' = 'completed',
  ): Promise<{ payment: PaymentJson; outcome: TransferOutcome }> {
    if (tenant.environment !== 'sandbox') throw paymentError(PaymentError.SimulatedTransfersSandboxOnly);
    const current = await this.repo.paymentJson(tenant.environmentId, id);
    if (!current) throw paymentError(PaymentError.NotFound);
    if (current.status === outcome) return { payment: current, outcome: 'skipped' };
    if (current.status !== 'pending') throw paymentError(PaymentError.NotPending);
    if (current.claimExpiresAt !== null && outcome === 'completed') {
      // A transfer payment: a transfer from the payer's phone for the amount, received and matched as any.
      const matched = await this.transfers.run((await this.repo.byId(id))!, tenant.organizationId);
      const after = (await this.repo.paymentJson(tenant.environmentId, id))!;
      if (after.status !== 'completed') throw paymentError(PaymentError.NotPending);
      return { payment: after, outcome: matched ? 'matched' : 'skipped' };
    }
    const settled = await this.settlement.settle(
      (await this.repo.byId(id))!,
      (await this.requests.byIdAnywhere(current.paymentRequestId))!,
      tenant.organizationId,
      outcome === 'completed'
        ? { status: 'completed', bankReference: null }
        : { status: 'failed', reason: 'simulated transfer failed' },
    );
    if (settled.status !== outcome) throw paymentError(PaymentError.NotPending);
    return { payment: settled, outcome: outcome === 'completed' ? 'matched' : 'unmatched' };
  }
}
