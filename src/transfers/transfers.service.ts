import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import { envelope, ListEnvelope, pageOf, PaginationQuery } from '../common/pagination';
import { Db } from '../database/db';
import type { PaymentRequest } from '../payment-requests/payment-request';
import {
  PaymentRequestError,
  paymentRequestError,
  voidRequestError,
} from '../payment-requests/payment-requests.errors';
import { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import type { Payment } from '../payments/payment';
import { PaymentError, paymentError } from '../payments/payments.errors';
import { PaymentsRepository } from '../payments/payments.repository';
import { PaymentSettlement } from '../payments/settlement';
import { TransferSimulation } from '../payments/transfer-simulation';
import { IncomingTransfer, Transfer, TransferJson, TransferStatus, toTransferJson } from './transfer';
import { TransferError, transferError } from './transfers.errors';
import { NewTransfer, TransfersRepository } from './transfers.repository';

/** A Sandbox environment a simulated transfer is injected into (it names its environment itself). */
export interface SandboxTarget {
  environmentId: string;
  organizationId: string;
}

/** What Sandbox's `POST /sandbox/transfers` injects. */
export interface SimulatedTransfer {
  payerPhone: string;
  amount: number;
  payerApp?: string;
  memo?: string;
}

/**
 * Receives the transfers the receiving banks report and matches them to the payments they pay
 * (docs/transfers.md "How a transfer is matched"); the merchant's transfers API (list, assign, return). Every path
 * that learns of a transfer (a signed notification, a poll, a Sandbox simulation) goes through
 * `receive`.
 */
@Injectable()
export class TransfersService implements OnModuleInit {
  private readonly logger = new Logger(TransfersService.name);

  constructor(
    private readonly db: Db,
    private readonly repo: TransfersRepository,
    private readonly payments: PaymentsRepository,
    private readonly requests: PaymentRequestsRepository,
    private readonly settlement: PaymentSettlement,
    private readonly simulation: TransferSimulation,
  ) {}

  /** `POST /payment/:id/simulate-transfer` on a transfer payment: a transfer from its payer, for its amount. */
  onModuleInit(): void {
    this.simulation.register(async (payment, organizationId) => {
      const { transfer } = await this.receive(
        {
          bankReference: sandboxReference(),
          receivingBank: payment.receivingBank!,
          receivingPhone: payment.receivingPhone!,
          payerPhone: payment.phoneNumber,
          payerApp: 'bankily',
          amount: payment.amount,
          receivedAt: new Date(),
        },
        { environmentId: payment.environmentId, organizationId },
      );
      return transfer.paymentId === payment.id;
    });
  }

  /**
   * Stores a transfer once and matches it: `created` false when it was already stored (the same
   * bank reference again, however many times and from however many instances), and then nothing
   * else happens. A new transfer completes the one pending transfer payment it can pay (the
   * request paid, its open checkout session completed, the ledger entry, the events: the
   * settlement of any payment) and is `matched`; with none or several candidates, or when its
   * candidate was settled by someone else first, it is `unmatched`. `transfer-received` is recorded
   * for every new transfer of an environment, as it was stored.
   *
   * Two statements: a read finds the transfer's environment and its candidates, then one statement
   * stores it with its event and, with one candidate, settles that payment (PaymentSettlement's
   * `settleWhen`, the transfer's insert its gate): the transfer is matched only when the payment
   * could still be settled, and the payment settled only when this statement stored the transfer,
   * so a transfer is never matched twice nor a payment completed twice, whatever races it.
   *
   * Live transfers find their environment by the receiving wallet: the Production environment
   * whose enabled transfer method receives there. When none has (or several have), the transfer
   * is kept with no environment, `unmatched`, for an operator: the money arrived and must not be
   * lost. `sandbox` names a Sandbox environment instead (a simulated transfer).
   */
  async receive(
    input: IncomingTransfer,
    sandbox?: SandboxTarget,
  ): Promise<{ transfer: Transfer; created: boolean }> {
    const incoming: IncomingTransfer = { ...input, receivingBank: input.receivingBank.toUpperCase() };
    const { environmentId, organizationId, candidates } = await this.payments.transferCandidates(
      incoming,
      sandbox ?? 'of-wallet',
    );
    const at = new Date();
    const transfer: NewTransfer = {
      ...incoming,
      id: randomUUID(),
      environmentId,
      organizationId,
      live: !sandbox,
      memo: incoming.memo ?? null,
      status: 'unmatched',
      paymentId: null,
      paymentRequestId: null,
      createdAt: at,
      updatedAt: at,
    };
    const stored = await this.store(transfer, candidates.length === 1 ? candidates[0] : undefined);
    if (stored === null) return { transfer: (await this.repo.byReference(transfer))!, created: false };
    if (environmentId === null)
      this.logger.warn(
        { transferId: transfer.id, receivingBank: transfer.receivingBank },
        'transfer to a wallet of no environment',
      );
    return { transfer: stored, created: true };
  }

  /**
   * Stores a new transfer, matched to `candidate` when it can pay it (see `receive`): the transfer
   * as stored, or null when its bank reference was already stored.
   */
  private async store(
    transfer: NewTransfer,
    candidate: { payment: Payment; request: PaymentRequest } | undefined,
  ): Promise<Transfer | null> {
    const { organizationId } = transfer;
    if (
      !candidate ||
      organizationId === null ||
      candidate.request.status === 'paid' ||
      candidate.request.voidedAt
    )
      return (await this.repo.storeUnmatched(transfer)) ? transfer : null;
    const { payment, request } = candidate;
    const matched = { paymentId: payment.id, paymentRequestId: request.id };
    const { gate } = await this.settlement.settleWhen(
      payment,
      request,
      organizationId,
      { status: 'completed', bankReference: transfer.bankReference },
      this.repo.matchGate(transfer, matched),
      { method: 'gimtel', environment: transfer.live ? 'production' : 'sandbox' },
    );
    if (gate === null) return null;
    return gate === 'matched' ? { ...transfer, status: 'matched', ...matched } : transfer;
  }

  /** Sandbox: a transfer to the environment's receiving wallet, received and matched as any. */
  async injectSandbox(tenant: Tenant, input: SimulatedTransfer): Promise<TransferJson> {
    if (tenant.environment !== 'sandbox') throw paymentError(PaymentError.SimulatedTransfersSandboxOnly);
    const method = (await this.payments.transferMethod(tenant.environmentId))!;
    const { transfer } = await this.receive(
      {
        bankReference: sandboxReference(),
        receivingBank: method.receivingBank ?? 'BANKILY',
        receivingPhone: method.receivingPhone ?? '22220000',
        payerPhone: input.payerPhone,
        payerApp: input.payerApp ?? 'bankily',
        amount: input.amount,
        receivedAt: new Date(),
        memo: input.memo ?? null,
      },
      { environmentId: tenant.environmentId, organizationId: tenant.organizationId },
    );
    return toTransferJson(transfer);
  }

  async list(
    tenant: Tenant,
    q: PaginationQuery & { status?: TransferStatus },
  ): Promise<ListEnvelope<TransferJson>> {
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(tenant.environmentId, { status: q.status }, page);
    return envelope(rows.map(toTransferJson), total, page);
  }

  async get(tenant: Tenant, id: string): Promise<TransferJson> {
    const transfer = await this.repo.byId(tenant.environmentId, id);
    if (!transfer) throw transferError(TransferError.NotFound);
    return toTransferJson(transfer);
  }

  /**
   * An unmatched transfer pays an unpaid request of its amount, as a completed payment of the
   * transfer method: the request's pending transfer payment when it has one (the customer paid
   * the wrong way round: another phone, after the claim), else a new payment, opened and
   * completed in this transaction through the settlement of any payment (ledger, events, the open
   * checkout session). The transfer is locked first, then the request, so an assign racing a
   * match or another assign pays the request once: the second finds it paid (409).
   */
  async assign(tenant: Tenant, id: string, paymentRequestId: string): Promise<TransferJson> {
    return this.db.transaction(async () => {
      const transfer = await this.repo.lock(tenant.environmentId, id);
      if (!transfer) throw transferError(TransferError.NotFound);
      if (transfer.status !== 'unmatched') throw transferError(TransferError.NotUnmatched);
      const locked = await this.requests.lock(tenant.environmentId, { id: paymentRequestId });
      if (!locked) throw paymentRequestError(PaymentRequestError.NotFound);
      const request = (await this.requests.byIdAnywhere(paymentRequestId))!;
      if (request.status === 'paid') throw paymentRequestError(PaymentRequestError.AlreadyPaid);
      if (request.voidedAt) throw voidRequestError(request);
      if (request.amount !== transfer.amount) throw transferError(TransferError.AmountMismatch);
      const { payment, opened } = await this.paymentToComplete(tenant, transfer, request);
      const settled = await this.settlement.settleIfPending(
        payment,
        opened,
        tenant.organizationId,
        { status: 'completed', bankReference: transfer.bankReference },
        { method: 'gimtel', environment: tenant.environment },
      );
      if (settled?.status !== 'completed') throw paymentError(PaymentError.InProgress);
      const assigned = await this.repo.settle(
        transfer.id,
        'assigned',
        { paymentId: payment.id, paymentRequestId: request.id },
        new Date(),
      );
      return toTransferJson(assigned!);
    });
  }

  /** The merchant sent an unmatched transfer back: `returned`, no ledger credit. */
  async return(tenant: Tenant, id: string): Promise<TransferJson> {
    return this.db.transaction(async () => {
      const transfer = await this.repo.lock(tenant.environmentId, id);
      if (!transfer) throw transferError(TransferError.NotFound);
      if (transfer.status !== 'unmatched') throw transferError(TransferError.NotUnmatched);
      return toTransferJson((await this.repo.settle(transfer.id, 'returned', null, new Date()))!);
    });
  }

  /**
   * The pending payment an assignment completes (the request is locked): its pending transfer
   * payment, else a new one of the transfer method; a pending push payment is the bank's, never
   * taken over (409, as pay answers).
   */
  private async paymentToComplete(
    tenant: Tenant,
    transfer: Transfer,
    request: PaymentRequest,
  ): Promise<{ payment: Payment; opened: PaymentRequest }> {
    const pending = await this.payments.pendingOfRequest(request.id);
    if (pending) {
      if (pending.claimExpiresAt === null) throw paymentError(PaymentError.InProgress);
      return { payment: pending, opened: request };
    }
    const method = (await this.payments.transferMethod(tenant.environmentId))!;
    const { payment, flags } = await this.payments.open({
      request,
      methodId: method.id,
      phoneNumber: transfer.payerPhone,
      organizationId: tenant.organizationId,
      transfer: {
        claimExpiresAt: new Date(),
        receivingBank: transfer.receivingBank,
        receivingPhone: transfer.receivingPhone,
      },
    });
    if (!flags.opened) throw paymentError(PaymentError.InProgress);
    return { payment, opened: { ...request, paymentCount: request.paymentCount + 1 } };
  }
}

/** A simulated transfer's bank reference: unique, and plainly not a bank's. */
function sandboxReference(): string {
  return `SBX-${randomUUID()}`;
}
