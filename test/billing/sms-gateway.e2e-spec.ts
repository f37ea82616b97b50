import { ReminderRun } from '../../src/billing/reminder-run';
import { SmsSender } from '../../src/billing/sms-sender';
import { startSmsSimulator, SmsSimulator } from '../../src/billing/sms-simulator/sms-simulator';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  createCustomer,
  createPrice,
  createProduct,
  createSubscription,
  DAY,
  invoicesOf,
} from '../helpers/billing';

/*
 * Reminders by SMS in Production, through the SMS simulator (a real HTTP server speaking
 * docs/sms-gateway.md): sent, failed then tried again, refused, in the customer's language. Runs
 * are scoped to the test's environment and given their `now`.
 */
let t: TestApp;
let sim: SmsSimulator;
beforeAll(async () => {
  sim = await startSmsSimulator();
  t = await startTestApp({ SMS_GATEWAY_URL: sim.url, SMS_RETRY_DELAY_MS: '60000', SMS_MAX_ATTEMPTS: '3' });
});
afterEach(() => sim.reset());
afterAll(async () => {
  await t.close();
  await sim.close();
});

/** A Production invoice of a customer (phone, language), SMS on: its reminder 1 day overdue is made. */
async function productionReminder(customer: { phone: string; language?: string }) {
  const org = await newTenant(t, 'Boutique Nour');
  const sk = org.production.secretKey;
  await t.http
    .patch('/api/v1/billing-settings')
    .set('Authorization', sk)
    .send({ sms: { enabled: true } });
  const product = await createProduct(t, sk);
  const price = await createPrice(t, sk, product.id, { amount: 2500 });
  const cust = await createCustomer(t, sk, customer);
  const sub = await createSubscription(t, sk, { customerId: cust.id, priceId: price.id });
  const [invoice] = await invoicesOf(t, sk, sub.id);
  const now = new Date(new Date(invoice.dueDate!).getTime() + DAY + 60_000);
  expect(await t.app.get(ReminderRun).run({ environmentId: org.production.environmentId, now })).toBe(1);
  const [{ data }] = await t.query(
    `SELECT data FROM events WHERE kind = 'invoice-overdue' AND data->>'id' = $1`,
    [invoice.id],
  );
  const send = (at: Date) =>
    t.app.get(SmsSender).sendDue({ environmentId: org.production.environmentId, now: at });
  const log = () =>
    t.query(`SELECT status, attempts, last_error AS "lastError" FROM sms_messages WHERE invoice_id = $1`, [
      invoice.id,
    ]);
  return { org, invoice, message: data.message, now, send, log };
}

describe('reminders by SMS', () => {
  it('sends the customer’s text through the gateway once, with its number in international form', async () => {
    const r = await productionReminder({ phone: '22334455' });
    expect(await r.send(r.now)).toEqual({ sent: 1, failed: 0, retry: 0 });
    expect(sim.messages()).toEqual([{ id: expect.any(String), to: '+22222334455', text: r.message.fr }]);
    expect(await r.log()).toEqual([{ status: 'sent', attempts: 1, lastError: null }]);
    expect(await r.send(new Date(r.now.getTime() + DAY))).toEqual({ sent: 0, failed: 0, retry: 0 });
    expect(sim.requests()).toBe(1);
    expect(t.logs.some((l) => l.includes('22334455'))).toBe(false);
  });

  it('sends an Arabic-speaking customer the Arabic text', async () => {
    const r = await productionReminder({ phone: '46112233', language: 'ar' });
    expect(await r.send(r.now)).toEqual({ sent: 1, failed: 0, retry: 0 });
    expect(sim.messages()).toEqual([{ id: expect.any(String), to: '+22246112233', text: r.message.ar }]);
    expect(r.message.ar).toMatch(/فاتورة/);
    expect(await r.log()).toEqual([{ status: 'sent', attempts: 1, lastError: null }]);
  });

  it('tries a failed SMS again after the retry delay, not before, and logs it sent on the second attempt', async () => {
    const r = await productionReminder({ phone: '33221100', language: 'en' });
    sim.setMode('error-once');
    expect(await r.send(r.now)).toEqual({ sent: 0, failed: 0, retry: 1 });
    expect(await r.log()).toEqual([{ status: 'pending', attempts: 1, lastError: 'gateway answered 503' }]);
    expect(await r.send(new Date(r.now.getTime() + 30_000))).toEqual({ sent: 0, failed: 0, retry: 0 });
    expect(await r.send(new Date(r.now.getTime() + 60_000))).toEqual({ sent: 1, failed: 0, retry: 0 });
    expect(await r.log()).toEqual([{ status: 'sent', attempts: 2, lastError: null }]);
    expect(sim.messages().map((m) => m.text)).toEqual([r.message.en]);
  });

  it('marks an SMS failed when the gateway refuses it, or after SMS_MAX_ATTEMPTS errors', async () => {
    const refused = await productionReminder({ phone: '22000001' });
    sim.setMode('reject');
    expect(await refused.send(refused.now)).toEqual({ sent: 0, failed: 1, retry: 0 });
    expect(await refused.log()).toEqual([
      { status: 'failed', attempts: 1, lastError: 'gateway answered 400' },
    ]);

    const down = await productionReminder({ phone: '22000002' });
    sim.setMode('error');
    let at = down.now;
    for (const expected of [{ retry: 1 }, { retry: 1 }, { failed: 1 }]) {
      expect(await down.send(at)).toEqual({ sent: 0, failed: 0, retry: 0, ...expected });
      at = new Date(at.getTime() + 10 * 60_000);
    }
    expect(await down.log()).toEqual([{ status: 'failed', attempts: 3, lastError: 'gateway answered 503' }]);
  });

  it('sends nothing without sms.enabled: the event carries the texts for the merchant to send', async () => {
    const org = await newTenant(t);
    const sk = org.production.secretKey;
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    const cust = await createCustomer(t, sk);
    const sub = await createSubscription(t, sk, { customerId: cust.id, priceId: price.id });
    const [invoice] = await invoicesOf(t, sk, sub.id);
    const now = new Date(new Date(invoice.dueDate!).getTime() + DAY + 60_000);
    expect(await t.app.get(ReminderRun).run({ environmentId: org.production.environmentId, now })).toBe(1);
    expect(await t.query(`SELECT 1 FROM sms_messages WHERE invoice_id = $1`, [invoice.id])).toEqual([]);
  });
});
