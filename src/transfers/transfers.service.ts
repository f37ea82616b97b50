import { Injectable, Logger } from '@nestjs/common';
import { Db } from '../database/db';
import { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import { PaymentsRepository } from '../payments/payments.repository';
import { PaymentSettlement } from '../payments/settlement';
import { IncomingTransfer, Transfer } from './transfer';
import { TransferScope, TransfersRepository } from './transfers.repository';

/** A Sandbox environment a simulated transfer is injected into (it names its environment itself). */
export interface SandboxTarget {
  environmentId: string;
  organizationId: string;
}

/**
 * Receives the transfers the receiving banks report and matches them to the payments they pay
 * (docs/transfers.md "Matching"). Every path that learns of a transfer (a signed notification, a
 * poll, a Sandbox simulation) goes through `receive`.
 */
@Injectable()
export class TransfersService {
  private readonly logger = new Logger(TransfersService.name);

  constructor(
    private readonly db: Db,
    private readonly repo: TransfersRepository,
    private readonly payments: PaymentsRepository,
    private readonly requests: PaymentRequestsRepository,
    private readonly settlement: PaymentSettlement,
  ) {}

  /**
   * Stores a transfer once and matches it, in one transaction: `created` false when it was
   * already stored (the same bank reference again, however many times and from however many
   * instances), and then nothing else happens. A new transfer completes the one pending transfer
   * payment it can pay (the request paid, its open checkout session completed, the ledger entry,
   * the events: the settlement of any payment) and is `matched`; with none or several candidates,
   * or when its candidate was settled by someone else first, it is `unmatched`. `transfer-received`
   * is recorded for every new transfer of an environment.
   *
   * Live transfers find their environment by the receiving wallet: the Production environment
   * whose enabled transfer method receives there. When none has (or, impossible by the dashboard
   * but not by the schema, several have), the transfer is kept with no environment, `unmatched`,
   * for an operator: the money arrived and must not be lost. `sandbox` names a Sandbox
   * environment instead (a simulated transfer).
   */
  async receive(
    input: IncomingTransfer,
    sandbox?: SandboxTarget,
  ): Promise<{ transfer: Transfer; created: boolean }> {
    const transfer: IncomingTransfer = { ...input, receivingBank: input.receivingBank.toUpperCase() };
    return this.db.transaction(async () => {
      const scope = await this.scopeOf(transfer, sandbox);
      const at = new Date();
      const stored = await this.repo.insert(transfer, scope, at);
      if (!stored) return { transfer: (await this.repo.byReference(transfer, scope))!, created: false };
      if (scope.environmentId === null || scope.organizationId === null) {
        this.logger.warn(
          { transferId: stored.id, receivingBank: transfer.receivingBank },
          'transfer to a wallet of no environment',
        );
        return { transfer: stored, created: true };
      }
      const matched = await this.match(stored, scope.environmentId, scope.organizationId, at);
      const received = matched ?? stored;
      await this.repo.recordReceived({
        ...received,
        environmentId: scope.environmentId,
        organizationId: scope.organizationId,
      });
      return { transfer: received, created: true };
    });
  }

  private async scopeOf(transfer: IncomingTransfer, sandbox?: SandboxTarget): Promise<TransferScope> {
    if (sandbox) return { ...sandbox, live: false };
    const environments = await this.payments.environmentsOfWallet(
      transfer.receivingBank,
      transfer.receivingPhone,
    );
    if (environments.length === 1) return { ...environments[0], live: true };
    return { environmentId: null, organizationId: null, live: true };
  }

  /**
   * The matching rule: exactly one candidate, still pending when settled by this transaction, and
   * its request still payable. Settling locks the request first, as every path that pays one, and
   * moves the payment only from `pending`: a transfer racing another for the same payment, or the
   * claim's expiry, or a manual assignment, finds it settled and stays unmatched.
   */
  private async match(
    transfer: Transfer,
    environmentId: string,
    organizationId: string,
    at: Date,
  ): Promise<Transfer | undefined> {
    const candidates = await this.payments.transferCandidates({ ...transfer, environmentId });
    if (candidates.length !== 1) return undefined;
    const payment = candidates[0];
    const request = await this.requests.byIdAnywhere(payment.paymentRequestId);
    if (!request || request.status === 'paid' || request.voidedAt) return undefined;
    const settled = await this.settlement.settleIfPending(
      payment,
      request,
      organizationId,
      { status: 'completed', bankReference: transfer.bankReference },
      { method: 'gimtel', environment: transfer.live ? 'production' : 'sandbox' },
    );
    if (settled?.status !== 'completed') return undefined;
    return this.repo.settle(
      transfer.id,
      'matched',
      { paymentId: payment.id, paymentRequestId: request.id },
      at,
    );
  }
}
