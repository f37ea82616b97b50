import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/http/pages';
import type { PaymentStatus } from '../payments/payment';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { PaymentsService } from '../payments/payments.service';
import { checkoutTexts } from './hosted-page';
import { TransferApp, TransferInstructionsView, transferLocals } from './transfer-page';

/*
 * A transfer payment on the hosted pages (a checkout session's and an invoice's): while it waits
 * for the customer's transfer, the page shows its instructions instead of "confirm in your app".
 */

/** The latest payment of a request when it was made on the transfer method (docs/transfers.md). */
export interface HostedTransfer {
  status: PaymentStatus;
  /** `expired` when the claim ran out before a transfer matched it. */
  failureReason: string | null;
  instructions: TransferInstructionsView;
  /** The member apps the customer may send it from (the method's `apps`). */
  apps: TransferApp[];
}

/**
 * The hosted pages' view of transfer payments, implemented by the transfers module. An abstract
 * class so it is its own injection token.
 */
export abstract class HostedTransfers {
  /** The request's latest payment if it is a transfer payment, else null (a bank app's, or none). */
  abstract latestOf(environmentId: string, paymentRequestId: string): Promise<HostedTransfer | null>;
}

/** How long past the claim's end the page keeps polling: the 2 minutes of grace and the expiry job's tick. */
const POLL_AFTER_CLAIM_MS = 5 * 60 * 1000;

/**
 * Without JavaScript the page reloads itself: every 15 s (not 5: the customer reads the steps
 * and copies the number meanwhile), back to the page with the chosen app's steps.
 */
const TRANSFER_REFRESH_SECONDS = 15;

/**
 * The locals of `views/checkout/transfer.hbs` for a pending transfer on the page at `pagePath`:
 * the instructions (the app's steps from `?app=`), the status route the script polls until the
 * claim has surely ended, and the no-JavaScript refresh to the page as it is then.
 */
export function pendingTransferLocals(
  page: PageRequest,
  transfer: HostedTransfer,
  pagePath: string,
  statusUrl: string,
): Record<string, unknown> {
  const t = checkoutTexts(page);
  const appQuery = (page.req.query as Record<string, unknown> | undefined)?.app;
  const locals = transferLocals(t, page.lang, transfer.instructions, transfer.apps, appQuery, pagePath);
  const app = (locals.transfer as { app?: TransferApp }).app;
  const refreshUrl = app ? `${pagePath}?app=${encodeURIComponent(app.code)}` : pagePath;
  return {
    ...locals,
    pageTitle: t.transferTitle,
    statusUrl,
    pageUrl: refreshUrl,
    pollUntil: new Date(transfer.instructions.claimExpiresAt.getTime() + POLL_AFTER_CLAIM_MS).toISOString(),
    refreshUrl,
    refreshSeconds: TRANSFER_REFRESH_SECONDS,
  };
}

/** The form's message after a failed attempt: the claim's expiry says so, a bank's failure its own. */
export function failedAttemptText(page: PageRequest, transfer: HostedTransfer | null): string {
  const t = checkoutTexts(page);
  return transfer?.status === 'failed' && transfer.failureReason === 'expired'
    ? t.transferExpired
    : t.bankFailure;
}

/** The real thing: the request's latest payment from payments, with the member apps of the transfer method. */
@Injectable()
export class PaymentsHostedTransfers extends HostedTransfers {
  constructor(
    private readonly payments: PaymentsService,
    private readonly methods: PaymentMethodsService,
  ) {
    super();
  }

  async latestOf(environmentId: string, paymentRequestId: string): Promise<HostedTransfer | null> {
    const payment = await this.payments.latestOfRequest(environmentId, paymentRequestId);
    // Only a transfer payment has a claim and the wallet the payer was told to pay.
    if (!payment?.claimExpiresAt || !payment.receivingBank || !payment.receivingPhone) return null;
    return {
      status: payment.status,
      failureReason: payment.failureReason,
      instructions: {
        receivingBank: payment.receivingBank,
        receivingPhone: payment.receivingPhone,
        amount: payment.amount,
        payerPhone: payment.phoneNumber,
        claimExpiresAt: payment.claimExpiresAt,
      },
      apps: await this.methods.gimtelApps(),
    };
  }
}
