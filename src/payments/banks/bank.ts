/**
 * One interface for every bank app: the Sandbox simulator and the Production gateway adapter
 * both implement it, and the payments service only ever talks to this.
 */

export const PAYMENT_METHOD_TYPES = [
  'bankily',
  'masrivi',
  'sedad',
  'bim_bank',
  'amanty',
  'bci_pay',
  /** The national switch's transfers: never charged through an adapter (docs/transfers.md). */
  'gimtel',
] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

export interface ChargeRequest {
  /** Our payment id: the bank's idempotency reference, so a retried charge is never charged twice. */
  reference: string;
  amount: number;
  phoneNumber: string;
  /** Only for methods that need one (Bankily). Sent to the bank, never stored or logged. */
  passCode?: string;
  /** The merchant's order id, shown to the customer by some banks. */
  description: string;
}

export interface StatusRequest {
  reference: string;
  phoneNumber: string;
}

/** A declined charge's `code` in the gateway protocol when the pass code was wrong (docs/bank-gateway.md). */
export const WRONG_PASS_CODE = 'wrong_pass_code';

/** What the bank says about a charge. */
export type BankAnswer =
  | { status: 'completed'; bankReference: string | null }
  | { status: 'pending'; bankReference: string | null }
  /** `wrongPassCode`: the bank refused the payer's pass code (Bankily), not the payment itself. */
  | { status: 'declined'; reason: string; wrongPassCode?: boolean }
  /** Status only: the bank has no charge with this reference (it never reached the bank). */
  | { status: 'unknown' };

export interface BankAdapter {
  charge(request: ChargeRequest, signal: AbortSignal): Promise<BankAnswer>;
  status(charge: StatusRequest, signal: AbortSignal): Promise<BankAnswer>;
  refund(request: RefundRequest, signal: AbortSignal): Promise<RefundAnswer>;
  refundStatus(request: RefundRequest, signal: AbortSignal): Promise<RefundAnswer>;
}

/** Money sent back to the payer's account in the bank app that was charged. */
export interface RefundRequest {
  /** Our refund id: the bank's idempotency reference, so a retried refund is never paid twice. */
  reference: string;
  /** The payment refunded (the charge's reference). */
  chargeReference: string;
  amount: number;
  /** The payer's phone, to which the money goes back. */
  phoneNumber: string;
}

/** What the bank says about a refund. */
export type RefundAnswer =
  | { status: 'succeeded'; bankReference: string | null }
  | { status: 'pending'; bankReference: string | null }
  | { status: 'failed'; reason: string }
  /** Status only: the bank has no refund with this reference (it never reached the bank). */
  | { status: 'unknown' };

/**
 * Money sent from Khoums to a merchant's payout account (docs/bank-gateway.md "Transfers"): the
 * gateway's third operation, which payouts use.
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

/**
 * The bank did not give a usable answer: no answer in time, a 5xx, a broken connection or the
 * bank not being configured. The outcome of a charge is then not known to us.
 */
export class BankUnavailableError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'error' | 'not-configured',
  ) {
    super(message);
    this.name = 'BankUnavailableError';
  }
}

/** Runs one bank call with a deadline; the adapter gets the signal so it can stop its work. */
export async function withDeadline<T>(
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new BankUnavailableError(`no answer within ${timeoutMs} ms`, 'timeout'));
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves when the signal aborts: how a simulated bank "never answers" without leaking a timer. */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new BankUnavailableError('aborted', 'timeout'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
