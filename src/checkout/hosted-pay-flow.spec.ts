import { randomUUID } from 'node:crypto';
import { AppError } from '../common/errors/app-error';
import type { PageRequest } from '../common/http/pages';
import { CHECKOUT_TEXTS } from '../common/i18n/checkout-texts';
import { paymentRequestError, PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { paymentError, PaymentError } from '../payments/payments.errors';
import type { CheckoutPayInput } from './checkout-payments';
import type { FormState } from './hosted-page';
import { PayablePage, payFromHostedPage } from './hosted-pay-flow';

const en = CHECKOUT_TEXTS.en;
const methodId = randomUUID();

/** A page request in English whose CSRF token is valid when it is `good`. */
function fakePage(body: Record<string, unknown>) {
  const headers: Record<string, string> = {};
  const page = {
    lang: 'en',
    req: { body },
    reply: { header: (name: string, value: string) => (headers[name] = value) },
    csrfValid: (_scope: string, token: unknown) => token === 'good',
  } as unknown as PageRequest;
  return { page, headers };
}

const validForm = {
  _csrf: 'good',
  paymentMethodId: methodId,
  phoneNumber: '22 12 34 56',
  passCode: ' 1234 ',
};

/** A payable page that records what the flow did with it. */
function fakeTarget(
  pay: (input: CheckoutPayInput) => Promise<{ status: 'pending' | 'completed' | 'failed' }>,
) {
  const did: string[] = [];
  const forms: { status: number; form: FormState }[] = [];
  const paid: CheckoutPayInput[] = [];
  const target: PayablePage = {
    knownPhone: null,
    payable: true,
    closedCode: 'closed_meanwhile',
    show: (status, reload) => {
      did.push(`show ${status}${reload ? ' reloaded' : ''}`);
      return Promise.resolve();
    },
    showForm: (status, form) => {
      forms.push({ status, form });
      did.push(`form ${status}`);
      return Promise.resolve();
    },
    pay: (input) => {
      paid.push(input);
      return pay(input);
    },
    completed: () => void did.push('completed'),
    pending: () => void did.push('pending'),
  };
  return { target, did, forms, paid };
}

describe('the hosted pages’ pay flow', () => {
  it('shows a page that cannot be paid as it is, with 409, and never pays', async () => {
    const { target, did, paid } = fakeTarget(() => Promise.resolve({ status: 'completed' }));
    await payFromHostedPage(fakePage(validForm).page, { ...target, payable: false });
    expect(did).toEqual(['show 409']);
    expect(paid).toEqual([]);
  });

  it('shows the form again with 403 when the guard refused the CSRF token, keeping what was typed', async () => {
    const { target, did, forms, paid } = fakeTarget(() => Promise.resolve({ status: 'completed' }));
    await payFromHostedPage(fakePage({ ...validForm, _csrf: 'bad' }).page, target, true);
    expect(did).toEqual(['form 403']);
    expect(forms[0].form).toEqual({ phoneNumber: '22 12 34 56', methodId, error: en.securityCheck });
    expect(paid).toEqual([]);
  });

  it('shows the form again with 400 for a missing bank app or an invalid phone', async () => {
    const noMethod = fakeTarget(() => Promise.resolve({ status: 'completed' }));
    await payFromHostedPage(fakePage({ ...validForm, paymentMethodId: 'x' }).page, noMethod.target);
    expect(noMethod.forms.map((f) => [f.status, f.form.error])).toEqual([[400, en.chooseMethodError]]);
    const badPhone = fakeTarget(() => Promise.resolve({ status: 'completed' }));
    await payFromHostedPage(fakePage({ ...validForm, phoneNumber: '123' }).page, badPhone.target);
    expect(badPhone.forms.map((f) => [f.status, f.form.error])).toEqual([[400, en.invalidPhone]]);
    expect([...noMethod.paid, ...badPhone.paid]).toEqual([]);
  });

  it('pays with the normalised phone, the trimmed pass code and the form’s own key', async () => {
    const { target, did, paid } = fakeTarget(() => Promise.resolve({ status: 'completed' }));
    const key = 'k'.repeat(24);
    await payFromHostedPage(fakePage({ ...validForm, idempotencyKey: key }).page, target);
    expect(paid).toEqual([
      { paymentMethodId: methodId, phoneNumber: '22123456', passCode: '1234', idempotencyKey: key },
    ]);
    expect(did).toEqual(['completed']);
  });

  it('pays from the number the merchant gave when the field is left empty; a typed one wins; none known: 400', async () => {
    const known = fakeTarget(() => Promise.resolve({ status: 'completed' }));
    for (const phoneNumber of ['', '   ', undefined])
      await payFromHostedPage(fakePage({ ...validForm, phoneNumber }).page, {
        ...known.target,
        knownPhone: '33445566',
      });
    await payFromHostedPage(fakePage(validForm).page, { ...known.target, knownPhone: '33445566' });
    expect(known.paid.map((p) => p.phoneNumber)).toEqual(['33445566', '33445566', '33445566', '22123456']);
    const unknown = fakeTarget(() => Promise.resolve({ status: 'completed' }));
    await payFromHostedPage(fakePage({ ...validForm, phoneNumber: '' }).page, unknown.target);
    expect(unknown.forms.map((f) => [f.status, f.form.error])).toEqual([[400, en.invalidPhone]]);
    expect(unknown.paid).toEqual([]);
  });

  it('waits on the pending page while the bank has the payment', async () => {
    const { target, did } = fakeTarget(() => Promise.resolve({ status: 'pending' }));
    await payFromHostedPage(fakePage(validForm).page, target);
    expect(did).toEqual(['pending']);
  });

  it('shows the form again with 502 and the bank-failure text when the payment failed', async () => {
    const { target, forms } = fakeTarget(() => Promise.resolve({ status: 'failed' }));
    await payFromHostedPage(fakePage(validForm).page, target);
    expect(forms.map((f) => [f.status, f.form.error])).toEqual([[502, en.bankFailure]]);
  });

  it.each([
    ['already paid', paymentRequestError(PaymentRequestError.AlreadyPaid)],
    ['a payment in progress', paymentError(PaymentError.InProgress)],
    ['the page closed', new AppError('closed_meanwhile', 409, 'closed')],
  ])('shows the page as it is now, with 409, when it changed meanwhile (%s)', async (_case, err) => {
    const { target, did } = fakeTarget(() => Promise.reject(err));
    await payFromHostedPage(fakePage(validForm).page, target);
    expect(did).toEqual(['show 409 reloaded']);
  });

  it('shows a refusal in the customer’s language, with its status and its headers', async () => {
    const { target, forms } = fakeTarget(() =>
      Promise.reject(paymentError(PaymentError.TooManyAttempts).retryAfter(60)),
    );
    const { page, headers } = fakePage(validForm);
    await payFromHostedPage(page, target);
    expect(forms.map((f) => [f.status, f.form.error])).toEqual([[429, en.tooManyAttempts]]);
    expect(headers).toEqual({ 'retry-after': '60' });
  });

  it('lets an error that is not a refusal through (a 500, logged)', async () => {
    const { target, did } = fakeTarget(() => Promise.reject(new Error('boom')));
    await expect(payFromHostedPage(fakePage(validForm).page, target)).rejects.toThrow('boom');
    expect(did).toEqual([]);
  });
});
