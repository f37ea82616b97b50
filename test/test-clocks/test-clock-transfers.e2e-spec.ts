import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { TestClockAdvance } from '../../src/billing/test-clock-advance';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { TransferClaims } from '../../src/payments/transfer-claims';
import { TransfersService } from '../../src/transfers/transfers.service';
import { PaymentsRepository } from '../../src/payments/payments.repository';
import { newTenant, startTestApp, TestApp, testDatabaseUrl } from '../helpers/app';
import { createPrice, createProduct, DAY, invoicesOf, uniqueId } from '../helpers/billing';
import { txId } from '../helpers/checkout';
import { waitFor } from '../helpers/poll';

/*
 * Transfer claims on test clocks (docs/transfers.md "Claims on a test clock", docs/billing.md
 * "Testing with test clocks"): a transfer payment of a clock's invoice has its claim on the clock's
 * time, only that clock's advance expires it (as of its moments), and a transfer for it matches
 * while the clock's time is within the claim and its grace, whatever the real time. The advance job
 * is off in this app: a test advances with POST /advance, then runs the job's work itself.
 */
jest.setTimeout(180_000);
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TRANSFER_CLAIM_MINUTES: '15' });
});
afterAll(() => t.close());

const MINUTE = 60_000;
let phoneSeq = 0;
/** A payer phone no other test of the run uses. */
function payerPhone(): string {
  phoneSeq += 1;
  return `3${String((process.pid * 1000 + phoneSeq) % 10_000_000).padStart(7, '0')}`;
}

const api = (method: 'get' | 'post' | 'patch' | 'put', key: string, path: string, body?: object) => {
  const r = t.http[method](`/api/v1${path}`).set('Authorization', key);
  return body === undefined ? r : r.send(body);
};

/** A Sandbox organization whose transfer method is on, with its settings changed by `settings`. */
async function merchant(settings?: object) {
  const org = await newTenant(t);
  const gimtel = await api('put', org.sandbox.secretKey, '/configuration/gimtel', { enabled: true });
  expect(gimtel.status).toBe(200);
  if (settings)
    expect((await api('patch', org.sandbox.secretKey, '/billing-settings', settings)).status).toBe(200);
  return { org, gimtelId: gimtel.body.data.id as string };
}

async function newClock(org: CreatedOrganization, frozenTime: string) {
  const res = await api('post', org.sandbox.secretKey, '/test-clocks', { frozenTime });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; frozenTime: string };
}

/** A monthly subscription of a customer on the clock: its first invoice, pending, and the subscription. */
async function invoiceOnClock(org: CreatedOrganization, clockId: string) {
  const key = org.sandbox.secretKey;
  const customer = await api('post', key, '/customers', {
    externalUserId: uniqueId('user'),
    phone: '22123456',
    testClockId: clockId,
  });
  expect(customer.status).toBe(200);
  const product = await createProduct(t, key);
  const price = await createPrice(t, key, product.id, { amount: 1500, interval: 'monthly' });
  const sub = await api('post', key, '/subscriptions', {
    customerId: customer.body.data.id,
    priceId: price.id,
  });
  expect(sub.status).toBe(200);
  const [invoice] = await invoicesOf(t, key, sub.body.data.id);
  expect(invoice.status).toBe('pending');
  return { invoice, subscriptionId: sub.body.data.id as string };
}

/** Pays the request of this transactionId (an invoice's is the invoice's id) by transfer. */
async function payByTransfer(
  org: CreatedOrganization,
  gimtelId: string,
  transactionId: string,
  phone: string,
) {
  const res = await api('post', org.sandbox.publishableKey, '/payment', {
    transactionId,
    phoneNumber: phone,
    configurationId: gimtelId,
  });
  expect(res.status).toBe(200);
  expect(res.body.data.status).toBe('pending');
  return res.body as {
    data: { id: string; claimExpiresAt: string };
    instructions: { claimExpiresAt: string };
  };
}

async function advance(org: CreatedOrganization, clockId: string, frozenTime: string) {
  const res = await api('post', org.sandbox.secretKey, `/test-clocks/${clockId}/advance`, { frozenTime });
  expect(res.status).toBe(200);
  // The job's work; another spec's live instance on the run's database may have claimed the clock first.
  const after = await waitFor(async () => {
    await t.app.get(TestClockAdvance).run();
    const clock = (await api('get', org.sandbox.secretKey, `/test-clocks/${clockId}`)).body.data;
    return clock.status === 'ready' && clock;
  }, 'the clock to be ready');
  expect(after).toMatchObject({ status: 'ready', advancedTo: new Date(frozenTime).toISOString() });
}

async function paymentOf(id: string) {
  const [row] = await t.query<{
    status: string;
    failure_reason: string | null;
    test_clock_id: string | null;
  }>('SELECT status, failure_reason, test_clock_id FROM payments WHERE id = $1', [id]);
  return row;
}

const expiredEvents = (paymentId: string) =>
  t.query(
    `SELECT data->>'status' AS status, data->>'failureReason' AS reason FROM events
      WHERE kind = 'payment-updated' AND data->>'id' = $1`,
    [paymentId],
  );

/** A time in the real future, to the millisecond: a clock there is ahead of every real claim. */
const ahead = (days: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + days * DAY).toISOString();

describe('a transfer payment of an invoice on a test clock', () => {
  it('has its claim on the clock’s time; the advance past claim and grace expires it, the invoice stays pending and dunning follows', async () => {
    const { org, gimtelId } = await merchant({ dunning: { afterDaysOverdue: 5, action: 'pause' } });
    const clock = await newClock(org, '2025-03-01T00:00:00Z');
    const { invoice, subscriptionId } = await invoiceOnClock(org, clock.id);
    const paid = await payByTransfer(org, gimtelId, invoice.id, payerPhone());
    // The clock's time at pay + the 15 minutes of the claim, in the answer and the instructions.
    expect(paid.data.claimExpiresAt).toBe('2025-03-01T00:15:00.000Z');
    expect(paid.instructions.claimExpiresAt).toBe('2025-03-01T00:15:00.000Z');
    expect((await paymentOf(paid.data.id)).test_clock_id).toBe(clock.id);

    // To the very end of the grace (claim + 2 minutes): still pending, as a transfer then still matches.
    await advance(org, clock.id, '2025-03-01T00:17:00Z');
    expect(await paymentOf(paid.data.id)).toMatchObject({ status: 'pending', failure_reason: null });

    await advance(org, clock.id, '2025-03-02T00:00:00Z');
    expect(await paymentOf(paid.data.id)).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    expect(await expiredEvents(paid.data.id)).toEqual([{ status: 'failed', reason: 'expired' }]);
    const [after] = await invoicesOf(t, org.sandbox.secretKey, subscriptionId);
    expect(after).toMatchObject({ id: invoice.id, status: 'pending' });

    // Due on Apr 1 and unpaid: past_due at the renewal, paused 5 days later at the clock's time.
    await advance(org, clock.id, '2025-04-10T00:00:00Z');
    const sub = (await api('get', org.sandbox.secretKey, `/subscriptions/${subscriptionId}`)).body.data;
    expect(sub.status).toBe('paused');
    const updates = await t.query<{ created_at: Date; status: string }>(
      `SELECT created_at, data->>'status' AS status FROM events
        WHERE kind = 'subscription-updated' AND data->>'id' = $1 ORDER BY created_at`,
      [subscriptionId],
    );
    expect(updates.map((u) => [u.created_at.toISOString(), u.status])).toEqual([
      ['2025-04-01T00:00:00.000Z', 'past_due'],
      ['2025-04-06T00:00:00.000Z', 'paused'],
    ]);
    const invoices = await invoicesOf(t, org.sandbox.secretKey, subscriptionId);
    expect(invoices.find((i) => i.id === invoice.id)?.status).toBe('pending');
    // Expired once, whatever ran since.
    expect(await expiredEvents(paid.data.id)).toHaveLength(1);
  });

  it('the real clock’s expiry, with the real time far past the claim, never touches it; a real claim is left to it', async () => {
    const { org, gimtelId } = await merchant();
    const clock = await newClock(org, '2025-03-01T00:00:00Z');
    const { invoice } = await invoiceOnClock(org, clock.id);
    const onClock = await payByTransfer(org, gimtelId, invoice.id, payerPhone());
    const transactionId = txId('real');
    expect(
      (await api('post', org.sandbox.secretKey, '/payment-request', { transactionId, amount: 1500 })).status,
    ).toBe(200);
    const real = await payByTransfer(org, gimtelId, transactionId, payerPhone());
    expect((await paymentOf(real.data.id)).test_clock_id).toBeNull();

    // The expiry job's run (the real clock's scope), as of a time far past both claims.
    const claims = t.app.get(TransferClaims);
    const far = new Date('2100-01-01T00:00:00Z');
    expect(await claims.expire({ asOf: far, environmentIds: [org.sandbox.environmentId] })).toBe(1);
    expect(await paymentOf(real.data.id)).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    expect(await paymentOf(onClock.data.id)).toMatchObject({ status: 'pending', failure_reason: null });
    expect(await expiredEvents(onClock.data.id)).toHaveLength(0);
  });

  it('another clock’s advance never touches it, and a clock’s advance never touches a real claim', async () => {
    const { org, gimtelId } = await merchant();
    // Both clocks ahead of the real time, so that their moments are past every real claim.
    const start = ahead(30);
    const clock = await newClock(org, start);
    const other = await newClock(org, start);
    const { invoice } = await invoiceOnClock(org, clock.id);
    const onClock = await payByTransfer(org, gimtelId, invoice.id, payerPhone());
    const { invoice: otherInvoice } = await invoiceOnClock(org, other.id);
    const onOther = await payByTransfer(org, gimtelId, otherInvoice.id, payerPhone());
    const transactionId = txId('real');
    expect(
      (await api('post', org.sandbox.secretKey, '/payment-request', { transactionId, amount: 1500 })).status,
    ).toBe(200);
    const real = await payByTransfer(org, gimtelId, transactionId, payerPhone());
    // Its claim ended an hour ago by the real clock: only the real expiry job may fail it.
    await t.query(`UPDATE payments SET claim_expires_at = now() - interval '1 hour' WHERE id = $1`, [
      real.data.id,
    ]);

    await advance(org, other.id, new Date(Date.parse(start) + 40 * DAY).toISOString());
    expect(await paymentOf(onOther.data.id)).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    expect(await paymentOf(onClock.data.id)).toMatchObject({ status: 'pending' });
    expect(await paymentOf(real.data.id)).toMatchObject({ status: 'pending' });

    await advance(org, clock.id, new Date(Date.parse(start) + 20 * MINUTE).toISOString());
    expect(await paymentOf(onClock.data.id)).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    expect(await paymentOf(real.data.id)).toMatchObject({ status: 'pending' });
    expect(await t.app.get(TransferClaims).expire({ environmentIds: [org.sandbox.environmentId] })).toBe(1);
    expect(await paymentOf(real.data.id)).toMatchObject({ status: 'failed', failure_reason: 'expired' });
  });
});

describe('a transfer arriving for it', () => {
  it('matches while the clock’s time is within the claim (POST /sandbox/transfers, simulate-transfer), whatever the real time', async () => {
    const { org, gimtelId } = await merchant();
    const clock = await newClock(org, '2025-03-01T00:00:00Z');
    const { invoice, subscriptionId } = await invoiceOnClock(org, clock.id);
    const phone = payerPhone();
    const paid = await payByTransfer(org, gimtelId, invoice.id, phone);
    // The claim ended long ago by the real clock; the clock's time is within it.
    const res = await api('post', org.sandbox.secretKey, '/sandbox/transfers', {
      payerPhone: phone,
      amount: 1500,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'matched', paymentId: paid.data.id });
    expect(await paymentOf(paid.data.id)).toMatchObject({ status: 'completed' });
    const [after] = await invoicesOf(t, org.sandbox.secretKey, subscriptionId);
    expect(after.status).toBe('paid');

    // The simulate route, on another invoice of the clock: the same real matching.
    const second = await invoiceOnClock(org, clock.id);
    const secondPaid = await payByTransfer(org, gimtelId, second.invoice.id, payerPhone());
    const simulated = await api(
      'post',
      org.sandbox.secretKey,
      `/payment/${secondPaid.data.id}/simulate-transfer`,
      {},
    );
    expect(simulated.status).toBe(200);
    expect(simulated.body).toMatchObject({ outcome: 'matched', data: { status: 'completed' } });
  });

  it('is measured against the clock’s time, not its arrival: past the clock’s claim and grace it is unmatched', async () => {
    const { org, gimtelId } = await merchant();
    const clock = await newClock(org, '2025-03-01T00:00:00Z');
    const { invoice } = await invoiceOnClock(org, clock.id);
    const phone = payerPhone();
    const paid = await payByTransfer(org, gimtelId, invoice.id, phone);
    const receive = (receivedAt: Date) =>
      t.app.get(TransfersService).receive(
        {
          bankReference: `REF-${randomUUID()}`,
          receivingBank: 'BANKILY',
          receivingPhone: '22220000',
          payerPhone: phone,
          payerApp: 'click',
          amount: 1500,
          receivedAt,
        },
        { environmentId: org.sandbox.environmentId, organizationId: org.organizationId },
      );
    // The clock's time set past the claim and its grace behind the advance's back (no expiry ran):
    // a transfer received now, within the claim by no clock but the real one's arrival, is unmatched.
    await t.query(`UPDATE test_clocks SET frozen_time = $2, position = $2 WHERE id = $1`, [
      clock.id,
      new Date('2025-03-01T00:17:00.001Z'),
    ]);
    const late = await receive(new Date('2025-03-01T00:05:00Z'));
    expect(late.transfer.status).toBe('unmatched');
    expect(await paymentOf(paid.data.id)).toMatchObject({ status: 'pending' });
    // At the very end of the grace by the clock, one received a year later by the real clock matches.
    await t.query(`UPDATE test_clocks SET frozen_time = $2, position = $2 WHERE id = $1`, [
      clock.id,
      new Date('2025-03-01T00:17:00Z'),
    ]);
    const inTime = await receive(new Date(Date.now() + 365 * DAY));
    expect(inTime.transfer).toMatchObject({ status: 'matched', paymentId: paid.data.id });
  });
});

describe('the expiry runs’ reads', () => {
  /** The plans of the statements `run` sends that name `marker`, with sequential scans and whole sorts off (the test database is small). */
  async function plansOf(marker: string, run: () => Promise<unknown>): Promise<string[]> {
    const spy = jest.spyOn(Client.prototype, 'query');
    let sent: { text: string; values: unknown[] }[];
    try {
      await run();
      sent = spy.mock.calls
        .map(([q]) => q as unknown as { text?: string; values?: unknown[] })
        .filter((q) => q.text?.includes(marker))
        .map((q) => ({ text: q.text!, values: q.values ?? [] }));
    } finally {
      spy.mockRestore();
    }
    expect(sent.length).toBeGreaterThan(0);
    const client = new Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      // The oldest claims first, a batch at a time: read in the order of an index, not sorted whole.
      await client.query('SET enable_seqscan = off; SET enable_sort = off');
      const plans: string[] = [];
      for (const q of sent) {
        const plan = await client.query({ text: `EXPLAIN ${q.text}`, values: q.values });
        plans.push((plan.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n'));
      }
      return plans;
    } finally {
      await client.end();
    }
  }

  it('the real clock’s run reads its own partial index, a test clock’s its own (and its next moment): neither reads the other’s payments', async () => {
    const claims = t.app.get(TransferClaims);
    const clockId = randomUUID();
    const [real] = await plansOf('claim_expires_at <', () => claims.expire({ asOf: new Date(0) }));
    expect(real).toContain('payments_transfer_claims_idx');
    const [onClock] = await plansOf('claim_expires_at <', () =>
      claims.expire({ asOf: new Date(0), clock: clockId }),
    );
    expect(onClock).toContain('payments_test_clock_claims_idx');
    const [next] = await plansOf('claim_expires_at >=', () =>
      t.app.get(PaymentsRepository).nextClaimExpiryOnClock(clockId, new Date()),
    );
    expect(next).toContain('payments_test_clock_claims_idx');
  });
});
