import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import { Messages } from '../../src/common/errors/messages';
import { EXTERNAL_ID_MAX } from '../../src/common/validation/fields';
import { startTestApp, TestApp } from '../helpers/app';
import { invoicesOf } from '../helpers/billing';
import {
  billingData,
  DASHBOARD_ENV,
  DashboardBrowser,
  invitedMember,
  signedInOwner,
  unescapeHtml,
} from '../helpers/dashboard';

/**
 * The invoice page's form that records a payment made by hand (docs/billing.md "Payments recorded
 * by hand"): owners only, the API's rules and messages, checked through the API afterwards.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const FORM = 'data-testid="manual-payment-form"';

/** An owner signed in, with a pending 1,500 MRU Sandbox invoice. */
async function ownerWithInvoice(language = 'en') {
  const { org, browser: en } = await signedInOwner(t);
  const billing = await billingData(t, org);
  const browser = language === 'en' ? en : new DashboardBrowser(t, undefined, language);
  if (language !== 'en') await browser.signIn(org.email, org.password);
  const path = `/dashboard/invoices/${billing.invoiceId}`;
  return { org, browser, billing, path, sk: org.sandbox.secretKey };
}

const invoiceOfApi = async (sk: string, subscriptionId: string) =>
  (await invoicesOf(t, sk, subscriptionId))[0];

describe('recording a payment by hand on the invoice page', () => {
  it('records a partial payment then the rest: amounts, the list, then paid, as the API shows', async () => {
    const { browser, billing, path, sk } = await ownerWithInvoice();
    const page = await browser.get(path);
    expect(page.text).toContain(FORM);
    expect(page.text).toMatch(/data-testid="amount-due">1500\.00</);

    const first = await browser.post(`${path}/payments`, {
      amount: '500',
      method: 'cash',
      reference: 'REÇU-17',
      paidAt: '2026-11-20T09:30',
    });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(`${path}?notice=manualPaymentRecorded`);
    expect(await invoiceOfApi(sk, billing.subscriptionId)).toMatchObject({
      status: 'pending',
      amountPaid: '500.00',
      amountDue: '1000.00',
      manualPayments: [
        { amount: 500, method: 'cash', reference: 'REÇU-17', paidAt: '2026-11-20T09:30:00.000Z' },
      ],
    });
    const after = unescapeHtml((await browser.get(`${path}?notice=manualPaymentRecorded`)).text);
    expect(after).toContain('Payment recorded.');
    expect(after).toMatch(/data-testid="amount-paid">500\.00</);
    expect(after).toMatch(/data-testid="amount-due">1000\.00</);
    expect(after.match(/data-testid="manual-payment"/g)).toHaveLength(1);
    expect(after).toContain('REÇU-17');

    expect((await browser.post(`${path}/payments`, { amount: '1000', method: 'bank_transfer' })).status).toBe(
      303,
    );
    const paid = await invoiceOfApi(sk, billing.subscriptionId);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: '1500.00', amountDue: '0.00' });
    expect(paid.manualPayments[1]).toMatchObject({ amount: 1000, method: 'bank_transfer', reference: null });
    const paidPage = (await browser.get(path)).text;
    expect(paidPage.match(/data-testid="manual-payment"/g)).toHaveLength(2);
    // A paid invoice offers no form.
    expect(paidPage).not.toContain(FORM);
  });

  it('shows the API’s messages: `Amount exceeds the amount due`, `Invoice is not pending`, `A payment for this payment request is already in progress`', async () => {
    const { org, browser, billing, path, sk } = await ownerWithInvoice();
    await browser.get(path);
    const over = await browser.post(`${path}/payments`, { amount: '1501', method: 'cash' });
    expect(over.status).toBe(200);
    expect(over.text).toContain(
      `data-testid="payment-refused">${DASHBOARD_TEXTS.en.apiRules.amount_exceeds_due}<`,
    );
    // The form keeps what was typed.
    expect(over.text).toMatch(/name="amount" value="1501"/);

    // A payment with the bank: the request is busy.
    const methods = await t.http.get('/api/v1/payment-methods').set('Authorization', sk);
    const masrivi = (methods.body.data as { type: string; id: string }[]).find((m) => m.type === 'masrivi')!;
    const pay = await t.http
      .post('/api/v1/payment')
      .set('Authorization', org.sandbox.publishableKey)
      .send({ transactionId: billing.invoiceId, phoneNumber: '22229003', configurationId: masrivi.id });
    expect(pay.body.data.status).toBe('pending');
    const busy = await browser.post(`${path}/payments`, { amount: '100', method: 'cash' });
    expect(busy.status).toBe(200);
    expect(busy.text).toContain(
      `data-testid="payment-refused">${DASHBOARD_TEXTS.en.apiRules.payment_in_progress}<`,
    );

    expect(await invoiceOfApi(sk, billing.subscriptionId)).toMatchObject({
      amountPaid: '0.00',
      manualPayments: [],
    });

    // Paid through the API meanwhile (the page still shows the form): not pending any more.
    const second = await ownerWithInvoice();
    await second.browser.get(second.path);
    const full = await t.http
      .post(`/api/v1/invoices/${second.billing.invoiceId}/payments`)
      .set('Authorization', second.sk)
      .send({ amount: 1500, method: 'cash' });
    expect(full.body.data.status).toBe('paid');
    const late = await second.browser.post(`${second.path}/payments`, { amount: '100', method: 'cash' });
    expect(late.status).toBe(200);
    expect(late.text).toContain(
      `data-testid="payment-refused">${DASHBOARD_TEXTS.en.apiRules.invoice_not_pending}<`,
    );
    expect((await invoiceOfApi(second.sk, second.billing.subscriptionId)).manualPayments).toHaveLength(1);
  });

  it('reports a form that does not parse, field by field, and records nothing', async () => {
    const { browser, billing, path, sk } = await ownerWithInvoice();
    const page = await browser.get(path);
    // The reference's field stops where the API's does.
    expect(page.text).toMatch(new RegExp(`name="reference"[^>]* maxlength="${EXTERNAL_ID_MAX}"`));
    for (const form of <Record<string, string>[]>[
      { amount: '', method: 'cash' },
      { amount: '0', method: 'cash' },
      { amount: '12.5', method: 'cash' },
      { amount: '100', method: 'card' },
      { amount: '100', method: 'cash', reference: 'x'.repeat(EXTERNAL_ID_MAX + 1) },
      { amount: '100', method: 'cash', paidAt: '2026-02-30T10:00' },
    ]) {
      const res = await browser.post(`${path}/payments`, form);
      expect({ form, status: res.status }).toEqual({ form, status: 200 });
      expect(res.text).toContain('aria-invalid="true"');
      expect(res.text).not.toContain('data-testid="payment-refused"');
    }
    expect(await invoiceOfApi(sk, billing.subscriptionId)).toMatchObject({
      amountPaid: '0.00',
      manualPayments: [],
    });
  });

  it('speaks French and Arabic', async () => {
    for (const [language, label, dir] of [
      ['fr', 'Enregistrer le paiement', 'ltr'],
      ['ar', 'تسجيل الدفعة', 'rtl'],
    ]) {
      const { browser, path } = await ownerWithInvoice(language);
      const page = await browser.get(path);
      expect(page.text).toContain(`dir="${dir}"`);
      expect(page.text).toContain(label);
      const over = await browser.post(`${path}/payments`, { amount: '99999', method: 'cash' });
      // The invoice's rule in the page's language, never the API's English.
      expect(over.text).toContain(
        `role="alert" data-testid="payment-refused">${DASHBOARD_TEXTS[language as 'fr' | 'ar'].apiRules.amount_exceeds_due}<`,
      );
      expect(over.text).not.toContain(Messages.amountExceedsDue);
    }
  });

  it('is the owners’: a developer and a viewer get no form, and their posts are 403 and change nothing', async () => {
    const { browser: owner, billing, path, sk } = await ownerWithInvoice();
    for (const role of ['developer', 'viewer'] as const) {
      const { browser } = await invitedMember(t, owner, role);
      const page = await browser.get(path);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain(FORM);
      expect(page.text).toMatch(/data-testid="amount-due">1500\.00</);
      const res = await browser.post(`${path}/payments`, { amount: '100', method: 'cash' });
      expect({ role, status: res.status }).toEqual({ role, status: 403 });
    }
    expect(await invoiceOfApi(sk, billing.subscriptionId)).toMatchObject({
      amountPaid: '0.00',
      manualPayments: [],
    });
  });

  it('needs the form’s CSRF token (403) and keeps another organization’s invoices out of reach (404)', async () => {
    const { browser, billing, path, sk } = await ownerWithInvoice();
    await browser.get(path);
    expect(
      (await browser.post(`${path}/payments`, { amount: '100', method: 'cash', _csrf: null })).status,
    ).toBe(403);
    expect(
      (await browser.post(`${path}/payments`, { amount: '100', method: 'cash', _csrf: 'forged' })).status,
    ).toBe(403);
    const other = await signedInOwner(t);
    await other.browser.get('/dashboard/invoices');
    expect((await other.browser.post(`${path}/payments`, { amount: '100', method: 'cash' })).status).toBe(
      404,
    );
    expect(await invoiceOfApi(sk, billing.subscriptionId)).toMatchObject({
      amountPaid: '0.00',
      manualPayments: [],
    });
  });
});
