import { AppError } from '../common/errors/app-error';
import type { PageRequest } from '../common/http/pages';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentError } from '../payments/payments.errors';
import type { CheckoutPayInput } from './checkout-payments';
import { checkoutTexts, FormState, payFailure, readPayForm } from './hosted-page';

/**
 * One hosted page's part in the pay flow both hosted pages run (a checkout session's and an
 * invoice's): what it shows and how it pays. The flow itself, written once, is `payFromHostedPage`.
 */
export interface PayablePage {
  /** The number the merchant gave (the payment request's), paid from when the field is left empty. */
  knownPhone: string | null;
  /** Whether the page can be paid as loaded: still open, and no payment with the bank. */
  payable: boolean;
  /** The error code of the page closed meanwhile (expired, cancelled, void): shown as it is now. */
  closedCode: string;
  /** Renders the page as loaded (`reload` false) or as it is now (`reload` true). */
  show(status: number, reload: boolean): Promise<void>;
  /** Renders the pay form again, as the customer filled it, with what went wrong. */
  showForm(status: number, form: FormState): Promise<void>;
  /** Pays; throws AppError on a refusal. */
  pay(input: CheckoutPayInput): Promise<{ status: 'pending' | 'completed' | 'failed' }>;
  /** After a completed payment (a redirect). */
  completed(): void;
  /** While the bank has the payment (the page that waits for it). */
  pending(): void | Promise<void>;
}

/**
 * A posted pay form on a hosted page: 409 with the page when it cannot be paid (before or
 * meanwhile), the form again with its error in the customer's language (403 when the kit's guard
 * refused its CSRF token, `tokenRefused`; 400 fields, the
 * payment's own refusal with its status and headers, 502 when the bank failed), else the completed
 * or pending outcome. Only the webhook proves a payment; the redirect is for the customer.
 */
export async function payFromHostedPage(
  page: PageRequest,
  target: PayablePage,
  tokenRefused = false,
): Promise<void> {
  if (!target.payable) return target.show(409, false);
  const form = readPayForm(page, target.knownPhone);
  const again = (status: number, error: string) => target.showForm(status, { ...form.typed, error });
  // The kit's guard refused the form's token: the form again, as typed (docs/architecture.md).
  if (tokenRefused) return again(403, checkoutTexts(page).securityCheck);
  if (!('input' in form)) return again(form.status, form.error);

  let result;
  try {
    result = await target.pay(form.input);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // Paid or closed meanwhile, or a payment already with the bank: show what it is now.
    if (AppError.is(err, PaymentRequestError.AlreadyPaid, PaymentError.InProgress, target.closedCode))
      return target.show(409, true);
    return again(err.status, payFailure(page, err));
  }
  switch (result.status) {
    case 'completed':
      return target.completed();
    case 'pending':
      return target.pending();
    case 'failed':
      return again(502, checkoutTexts(page).bankFailure);
  }
}
