import { randomUUID } from 'node:crypto';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { TransferClaims } from '../../src/payments/transfer-claims';
import { PaymentMethodsService } from '../../src/payments/payment-methods.service';
import { PaymentsRepository } from '../../src/payments/payments.repository';
import { PaymentSettlement } from '../../src/payments/settlement';
import type { IncomingTransfer } from '../../src/transfers/transfer';
import { TransfersRepository } from '../../src/transfers/transfers.repository';
import { TransfersService } from '../../src/transfers/transfers.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { txId } from '../helpers/checkout';
import { expectText } from '../helpers/http';

/**
 * Paying from any wallet of the national switch (docs/transfers.md): the transfer method, pay with
 * instructions, the matching of what arrives, claim expiry, the transfers API and the Sandbox.
 * Concurrency on two instances: concurrency.e2e-spec.ts.
 */

let t: TestApp;
let org: CreatedOrganization;
let gimtelId: string;
let phoneSeq = 0;

beforeAll(async () => {
  t = await startTestApp({ TRANSFER_CLAIM_MINUTES: '15' });
  org = await newTenant(t);
  const res = await t.http
    .put('/api/v1/configuration/gimtel')
    .set('Authorization', org.sandbox.secretKey)
    .send({ enabled: true })
    .expect(200);
  gimtelId = res.body.data.id;
});
afterAll(() => t.close());

/** A payer phone no other test of the run uses. */
function payerPhone(): string {
  phoneSeq += 1;
  return `4${String((process.pid * 1000 + phoneSeq) % 10_000_000).padStart(7, '0')}`;
}

async function newRequest(key: string, amount = 1500): Promise<{ id: string; transactionId: string }> {
  const transactionId = txId('transfer');
  const res = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', key)
    .send({ transactionId, amount })
    .expect(200);
  return { id: res.body.data.id, transactionId };
}

function payByTransfer(
  key: string,
  request: { transactionId: string },
  phoneNumber: string,
  configurationId = gimtelId,
) {
  return t.http
    .post('/api/v1/payment')
    .set('Authorization', key)
    .send({ transactionId: request.transactionId, phoneNumber, configurationId });
}

function sandboxTransfer(over: Partial<IncomingTransfer>): IncomingTransfer {
  return {
    bankReference: `REF-${randomUUID()}`,
    receivingBank: 'BANKILY',
    receivingPhone: '22220000',
    payerPhone: payerPhone(),
    payerApp: 'click',
    amount: 1500,
    receivedAt: new Date(),
    ...over,
  };
}

const receive = (transfer: IncomingTransfer, target = org) =>
  t.app.get(TransfersService).receive(transfer, {
    environmentId: target.sandbox.environmentId,
    organizationId: target.organizationId,
  });

async function statusOf(paymentId: string): Promise<string> {
  const rows = await t.query('SELECT status FROM payments WHERE id = $1', [paymentId]);
  return rows[0].status;
}

describe('the transfer method', () => {
  it('is listed only once its owner turned it on, with flow, apps and the receiving wallet', async () => {
    const other = await newTenant(t);
    const before = await t.http
      .get('/api/v1/configuration')
      .set('Authorization', other.sandbox.publishableKey);
    expect(before.body.data.map((m: { type: string }) => m.type)).toEqual(['bankily', 'masrivi', 'sedad']);
    expect(before.body.data.every((m: { flow: string }) => m.flow === 'push')).toBe(true);

    await t.http
      .put('/api/v1/configuration/gimtel')
      .set('Authorization', other.sandbox.secretKey)
      .send({ enabled: true })
      .expect(200);
    const after = await t.http
      .get('/api/v1/payment-methods')
      .set('Authorization', other.sandbox.publishableKey);
    const gimtel = after.body.data.find((m: { type: string }) => m.type === 'gimtel');
    expect(gimtel).toMatchObject({
      flow: 'transfer',
      requiresPassCode: false,
      receivingBank: 'BANKILY',
      receivingPhone: '22220000',
    });
    expect(gimtel.apps.map((a: { code: string }) => a.code)).toEqual(
      expect.arrayContaining([
        'bankily',
        'sedad',
        'click',
        'amanty',
        'bci_pay',
        'bamis_digital',
        'berid_cash',
      ]),
    );

    await t.http
      .put('/api/v1/configuration/gimtel')
      .set('Authorization', other.sandbox.secretKey)
      .send({ enabled: false })
      .expect(200);
    const off = await t.http.get('/api/v1/configuration').set('Authorization', other.sandbox.publishableKey);
    expect(off.body.data.some((m: { type: string }) => m.type === 'gimtel')).toBe(false);
  });

  it('takes a receiving bank of PAYOUT_BANKS or a member app, and a valid phone; 400 otherwise', async () => {
    const other = await newTenant(t);
    const put = (body: object) =>
      t.http.put('/api/v1/configuration/gimtel').set('Authorization', other.sandbox.secretKey).send(body);
    expectText(await put({ receivingBank: 'NOPE' }), 400, Messages.invalidReceivingBank);
    expectText(await put({ receivingPhone: '123' }), 400, Messages.invalidPhoneNumber);
    const bnm = await put({ receivingBank: 'BNM', receivingPhone: '36001122' }).expect(200);
    expect(bnm.body.data).toMatchObject({ receivingBank: 'BNM', receivingPhone: '36001122' });
    const app = await put({ receivingBank: 'sedad' }).expect(200);
    expect(app.body.data.receivingBank).toBe('SEDAD');
  });

  it('Production: needs both fields, and a verified organization', async () => {
    const verified = await newTenant(t);
    const put = (key: string, body: object) =>
      t.http.put('/api/v1/configuration/gimtel').set('Authorization', key).send(body);
    expectText(
      await put(verified.production.secretKey, { enabled: true }),
      400,
      Messages.invalidReceivingBank,
    );
    expectText(
      await put(verified.production.secretKey, { receivingBank: 'BANKILY' }),
      400,
      Messages.invalidPhoneNumber,
    );
    await put(verified.production.secretKey, {
      receivingBank: 'BANKILY',
      receivingPhone: payerPhone(),
    }).expect(200);

    const unverified = await newTenant(t, 'Unverified', { verification: 'unverified' });
    expectText(
      await put(unverified.production.secretKey, { receivingBank: 'BANKILY', receivingPhone: payerPhone() }),
      400,
      Messages.transfersNeedVerification,
    );
  });

  it("an operator's change of the apps list is what the method lists", async () => {
    const methods = t.app.get(PaymentMethodsService);
    const before = await methods.gimtelApps();
    try {
      await methods.setGimtelApps([...before, { code: 'gbm_pay', name: 'GBM Pay' }]);
      const res = await t.http.get('/api/v1/configuration').set('Authorization', org.sandbox.publishableKey);
      const gimtel = res.body.data.find((m: { type: string }) => m.type === 'gimtel');
      expect(gimtel.apps.at(-1)).toEqual({ code: 'gbm_pay', name: 'GBM Pay' });
      await expect(methods.setGimtelApps([{ code: 'Bad Code', name: 'x' }])).rejects.toThrow(RangeError);
    } finally {
      await methods.setGimtelApps(before);
    }
  });
});

describe('pay by transfer', () => {
  it('answers a pending payment with its claim and the instructions; the reads carry the claim', async () => {
    const request = await newRequest(org.sandbox.secretKey, 2300);
    const phone = payerPhone();
    const before = Date.now();
    const res = await payByTransfer(org.sandbox.publishableKey, request, phone).expect(200);
    const claim = new Date(res.body.data.claimExpiresAt).getTime();
    expect(claim).toBeGreaterThanOrEqual(before + 15 * 60_000 - 1000);
    expect(claim).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000);
    expect(res.body.status).toBe('pending');
    expect(res.body.instructions).toEqual({
      kind: 'gimtel',
      receivingPhone: '22220000',
      receivingBank: 'BANKILY',
      amount: 2300,
      payerPhone: phone,
      paymentId: res.body.data.id,
      claimExpiresAt: res.body.data.claimExpiresAt,
    });
    const got = await t.http
      .get(`/api/v1/payment/${res.body.data.id}`)
      .set('Authorization', org.sandbox.secretKey)
      .expect(200);
    expect(got.body.data.claimExpiresAt).toBe(res.body.data.claimExpiresAt);
    const status = await t.http
      .get(`/api/v1/payment/${res.body.data.id}/status`)
      .set('Authorization', org.sandbox.secretKey)
      .expect(200);
    expect(status.body.claimExpiresAt).toBe(res.body.data.claimExpiresAt);

    // One payment in progress at a time, as for any method.
    expectText(
      await payByTransfer(org.sandbox.publishableKey, request, phone),
      409,
      Messages.paymentInProgress,
    );
  });

  it('a push method still answers instructions null', async () => {
    const request = await newRequest(org.sandbox.secretKey);
    const methods = await t.http
      .get('/api/v1/configuration')
      .set('Authorization', org.sandbox.publishableKey);
    const masrivi = methods.body.data.find((m: { type: string }) => m.type === 'masrivi').id;
    const res = await payByTransfer(org.sandbox.publishableKey, request, '22222222', masrivi).expect(200);
    expect(res.body.instructions).toBeNull();
    expect(res.body.data.claimExpiresAt).toBeNull();
  });

  it('a paid request is 409', async () => {
    const request = await newRequest(org.sandbox.secretKey);
    const paid = await payByTransfer(org.sandbox.publishableKey, request, payerPhone()).expect(200);
    await t.http
      .post(`/api/v1/payment/${paid.body.data.id}/simulate-transfer`)
      .set('Authorization', org.sandbox.secretKey)
      .send({})
      .expect(200);
    expectText(
      await payByTransfer(org.sandbox.publishableKey, request, payerPhone()),
      409,
      Messages.paymentRequestAlreadyPaid,
    );
  });
});

describe('matching', () => {
  it('one candidate: the payment completes as any payment (request paid, ledger, events) and the transfer is matched', async () => {
    const request = await newRequest(org.sandbox.secretKey, 1700);
    const phone = payerPhone();
    const paid = await payByTransfer(org.sandbox.publishableKey, request, phone).expect(200);
    const paymentId = paid.body.data.id;
    const { transfer, created } = await receive(sandboxTransfer({ payerPhone: phone, amount: 1700 }));
    expect(created).toBe(true);
    expect(transfer).toMatchObject({ status: 'matched', paymentId, paymentRequestId: request.id });
    expect(await statusOf(paymentId)).toBe('completed');
    const pr = await t.query('SELECT status FROM payment_requests WHERE id = $1', [request.id]);
    expect(pr[0].status).toBe('paid');
    const ledger = await t.query(
      "SELECT amount FROM balance_transactions WHERE source_id = $1 AND type = 'payment'",
      [paymentId],
    );
    expect(ledger).toHaveLength(1);
    const kinds = await t.query(
      `SELECT kind FROM events WHERE environment_id = $1 AND (data->>'id' = $2 OR data->>'id' = $3 OR data->>'id' = $4)`,
      [org.sandbox.environmentId, paymentId, request.id, transfer.id],
    );
    expect(kinds.map((k) => k.kind)).toEqual(
      expect.arrayContaining(['payment-updated', 'payment-request-updated', 'transfer-received']),
    );
    const received = await t.query(
      `SELECT data FROM events WHERE kind = 'transfer-received' AND data->>'id' = $1`,
      [transfer.id],
    );
    expect(received[0].data).toMatchObject({ status: 'matched', paymentId, amount: 1700, payerApp: 'click' });
  });

  it('the same transfer twice is stored once and completes nothing more', async () => {
    const incoming = sandboxTransfer({});
    const first = await receive(incoming);
    const again = await receive(incoming);
    expect(first.created).toBe(true);
    expect(again).toEqual({ transfer: first.transfer, created: false });
    const rows = await t.query('SELECT count(*)::int AS n FROM transfers WHERE bank_reference = $1', [
      incoming.bankReference,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('a transfer stored before its payment was opened, received again once the payment is pending, completes nothing', async () => {
    // The bank repeats a notification: the first copy found no candidate and stored the transfer
    // unmatched; the later copy finds the payment opened since, but only a transfer this statement
    // stores may settle one (the insert is the settlement's gate).
    const request = await newRequest(org.sandbox.secretKey, 1750);
    const phone = payerPhone();
    const incoming = sandboxTransfer({ payerPhone: phone, amount: 1750 });
    const first = await receive(incoming);
    expect(first.transfer.status).toBe('unmatched');
    const paid = await payByTransfer(org.sandbox.publishableKey, request, phone).expect(200);
    const again = await receive(incoming);
    expect(again).toEqual({ transfer: first.transfer, created: false });
    expect(await statusOf(paid.body.data.id)).toBe('pending');
    const events = await t.query(
      `SELECT kind FROM events WHERE (kind = 'transfer-received' AND data->>'id' = $1) OR data->>'id' = $2`,
      [first.transfer.id, paid.body.data.id],
    );
    expect(events.map((e) => e.kind).sort()).toEqual(['payment-created', 'transfer-received']);
  });

  it('a candidate settled by someone else between the read and the write: the transfer is stored unmatched, the payment untouched', async () => {
    const request = await newRequest(org.sandbox.secretKey, 1760);
    const phone = payerPhone();
    const paid = await payByTransfer(org.sandbox.publishableKey, request, phone).expect(200);
    const incoming = sandboxTransfer({ payerPhone: phone, amount: 1760 });
    const scope = { environmentId: org.sandbox.environmentId, organizationId: org.organizationId };
    const { candidates } = await t.app.get(PaymentsRepository).transferCandidates(incoming, scope);
    expect(candidates).toHaveLength(1);
    // Someone else fails it first (the claim's expiry, say) after the read.
    await t.query(`UPDATE payments SET status = 'failed', failure_reason = 'expired' WHERE id = $1`, [
      paid.body.data.id,
    ]);
    const at = new Date();
    const transfer = {
      ...incoming,
      id: randomUUID(),
      ...scope,
      live: false,
      memo: null,
      status: 'unmatched' as const,
      paymentId: null,
      paymentRequestId: null,
      createdAt: at,
      updatedAt: at,
    };
    const { payment, request: read } = candidates[0];
    const { gate, settled } = await t.app
      .get(PaymentSettlement)
      .settleWhen(
        payment,
        read,
        org.organizationId,
        { status: 'completed', bankReference: incoming.bankReference },
        t.app
          .get(TransfersRepository)
          .matchGate(transfer, { paymentId: payment.id, paymentRequestId: read.id }),
      );
    expect({ gate, settled }).toEqual({ gate: 'unmatched', settled: undefined });
    expect(await statusOf(paid.body.data.id)).toBe('failed');
    const [stored] = await t.query('SELECT status, payment_id FROM transfers WHERE id = $1', [transfer.id]);
    expect(stored).toEqual({ status: 'unmatched', payment_id: null });
    const received = await t.query(
      `SELECT data FROM events WHERE kind = 'transfer-received' AND data->>'id' = $1`,
      [transfer.id],
    );
    expect(received.map((r) => r.data.status)).toEqual(['unmatched']);
    const pr = await t.query('SELECT status FROM payment_requests WHERE id = $1', [request.id]);
    expect(pr[0].status).toBe('pending');
  });

  it('no candidate (another amount, another phone): unmatched, and the payment stays pending', async () => {
    const request = await newRequest(org.sandbox.secretKey, 1800);
    const phone = payerPhone();
    const paid = await payByTransfer(org.sandbox.publishableKey, request, phone).expect(200);
    expect((await receive(sandboxTransfer({ payerPhone: phone, amount: 1799 }))).transfer.status).toBe(
      'unmatched',
    );
    expect((await receive(sandboxTransfer({ amount: 1800 }))).transfer.status).toBe('unmatched');
    expect(await statusOf(paid.body.data.id)).toBe('pending');
  });

  it('two pending payments of one payer and amount: unmatched, both stay pending', async () => {
    const phone = payerPhone();
    const a = await payByTransfer(
      org.sandbox.publishableKey,
      await newRequest(org.sandbox.secretKey, 1900),
      phone,
    );
    const b = await payByTransfer(
      org.sandbox.publishableKey,
      await newRequest(org.sandbox.secretKey, 1900),
      phone,
    );
    const { transfer } = await receive(sandboxTransfer({ payerPhone: phone, amount: 1900 }));
    expect(transfer.status).toBe('unmatched');
    expect(await statusOf(a.body.data.id)).toBe('pending');
    expect(await statusOf(b.body.data.id)).toBe('pending');
  });

  it('a second transfer for a payment already paid is unmatched (money to give back)', async () => {
    const phone = payerPhone();
    const paid = await payByTransfer(
      org.sandbox.publishableKey,
      await newRequest(org.sandbox.secretKey, 2000),
      phone,
    );
    expect((await receive(sandboxTransfer({ payerPhone: phone, amount: 2000 }))).transfer.status).toBe(
      'matched',
    );
    const second = await receive(sandboxTransfer({ payerPhone: phone, amount: 2000 }));
    expect(second.transfer.status).toBe('unmatched');
    expect(await statusOf(paid.body.data.id)).toBe('completed');
  });

  it('received within the 2 minutes of grace after the claim: matched; later: unmatched', async () => {
    const phone = payerPhone();
    const paid = await payByTransfer(
      org.sandbox.publishableKey,
      await newRequest(org.sandbox.secretKey, 2100),
      phone,
    );
    const claim = new Date(paid.body.data.claimExpiresAt).getTime();
    const late = await receive(
      sandboxTransfer({ payerPhone: phone, amount: 2100, receivedAt: new Date(claim + 2 * 60_000 + 1000) }),
    );
    expect(late.transfer.status).toBe('unmatched');
    const inGrace = await receive(
      sandboxTransfer({ payerPhone: phone, amount: 2100, receivedAt: new Date(claim + 2 * 60_000 - 1000) }),
    );
    expect(inGrace.transfer.status).toBe('matched');
  });

  it('a transfer from another environment (another wallet owner) never matches', async () => {
    const other = await newTenant(t);
    const phone = payerPhone();
    const paid = await payByTransfer(
      org.sandbox.publishableKey,
      await newRequest(org.sandbox.secretKey, 2200),
      phone,
    );
    const { transfer } = await receive(sandboxTransfer({ payerPhone: phone, amount: 2200 }), other);
    expect(transfer.status).toBe('unmatched');
    expect(await statusOf(paid.body.data.id)).toBe('pending');
  });
});

describe('live transfers find their environment by the receiving wallet', () => {
  it("a Production environment's enabled wallet: matched there; a wallet of no environment: kept with none", async () => {
    const live = await newTenant(t);
    const wallet = payerPhone();
    await t.http
      .put('/api/v1/configuration/gimtel')
      .set('Authorization', live.production.secretKey)
      .send({ receivingBank: 'BANKILY', receivingPhone: wallet })
      .expect(200);
    const methods = await t.http.get('/api/v1/configuration').set('Authorization', live.production.secretKey);
    const gimtel = methods.body.data.find((m: { type: string }) => m.type === 'gimtel').id;
    const phone = payerPhone();
    const request = await newRequest(live.production.secretKey, 3100);
    const paid = await payByTransfer(live.production.secretKey, request, phone, gimtel).expect(200);
    const service = t.app.get(TransfersService);
    const { transfer } = await service.receive(
      sandboxTransfer({ receivingBank: 'bankily', receivingPhone: wallet, payerPhone: phone, amount: 3100 }),
    );
    expect(transfer).toMatchObject({
      status: 'matched',
      environmentId: live.production.environmentId,
      live: true,
      paymentId: paid.body.data.id,
    });

    const orphan = await service.receive(sandboxTransfer({ receivingPhone: payerPhone(), amount: 3100 }));
    expect(orphan.transfer).toMatchObject({ status: 'unmatched', environmentId: null, organizationId: null });
    const events = await t.query(
      `SELECT 1 FROM events WHERE kind = 'transfer-received' AND data->>'id' = $1`,
      [orphan.transfer.id],
    );
    expect(events).toHaveLength(0);
  });
});

describe('claim expiry', () => {
  it('fails a transfer payment 2 minutes past its claim (expired, payment-updated), not before', async () => {
    const paid = await payByTransfer(
      org.sandbox.publishableKey,
      await newRequest(org.sandbox.secretKey),
      payerPhone(),
    );
    const id = paid.body.data.id;
    const claim = new Date(paid.body.data.claimExpiresAt).getTime();
    const claims = t.app.get(TransferClaims);
    expect(await claims.expire({ asOf: new Date(claim + 2 * 60_000 - 1000), paymentIds: [id] })).toBe(0);
    expect(await statusOf(id)).toBe('pending');
    expect(await claims.expire({ asOf: new Date(claim + 2 * 60_000 + 1000), paymentIds: [id] })).toBe(1);
    const rows = await t.query('SELECT status, failure_reason FROM payments WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ status: 'failed', failure_reason: 'expired' });
    const events = await t.query(
      `SELECT data->>'failureReason' AS reason FROM events WHERE kind = 'payment-updated' AND data->>'id' = $1`,
      [id],
    );
    expect(events).toEqual([{ reason: 'expired' }]);
    // Run again (or on another instance): nothing more.
    expect(await claims.expire({ asOf: new Date(claim + 10 * 60_000), paymentIds: [id] })).toBe(0);
  });
});

describe('the transfers API', () => {
  async function unmatched(amount: number, target = org) {
    return (await receive(sandboxTransfer({ amount }), target)).transfer;
  }
  const api = (key = org.sandbox.secretKey) => ({
    get: (path: string) => t.http.get(`/api/v1${path}`).set('Authorization', key),
    post: (path: string, body: object = {}) =>
      t.http.post(`/api/v1${path}`).set('Authorization', key).send(body),
  });

  it("lists and reads the environment's transfers, filtered by status; 404 elsewhere", async () => {
    const own = await newTenant(t);
    const transfer = await unmatched(1234, own);
    const list = await api(own.sandbox.secretKey).get('/transfers?status=unmatched').expect(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([transfer.id]);
    expect(list.body.data[0]).toMatchObject({
      amount: 1234,
      status: 'unmatched',
      bankReference: transfer.bankReference,
    });
    const none = await api(own.sandbox.secretKey).get('/transfers?status=matched').expect(200);
    expect(none.body.data).toEqual([]);
    await api(own.sandbox.secretKey).get(`/transfers/${transfer.id}`).expect(200);
    expectText(
      await api(org.sandbox.secretKey).get(`/transfers/${transfer.id}`),
      404,
      Messages.transferNotFound,
    );
    expectText(
      await api(own.production.secretKey).get(`/transfers/${transfer.id}`),
      404,
      Messages.transferNotFound,
    );
    expectText(
      await api(org.sandbox.secretKey).post(`/transfers/${transfer.id}/return`),
      404,
      Messages.transferNotFound,
    );
  });

  it('assign pays an unpaid request of its amount as a completed gimtel payment; the rules are 400/409', async () => {
    const transfer = await unmatched(2500);
    const wrong = await newRequest(org.sandbox.secretKey, 2400);
    expectText(
      await api().post(`/transfers/${transfer.id}/assign`, { paymentRequestId: wrong.id }),
      400,
      Messages.transferAmountMismatch,
    );
    const request = await newRequest(org.sandbox.secretKey, 2500);
    const assigned = await api()
      .post(`/transfers/${transfer.id}/assign`, { paymentRequestId: request.id })
      .expect(200);
    expect(assigned.body.data).toMatchObject({ status: 'assigned', paymentRequestId: request.id });
    const payment = await api().get(`/payment/${assigned.body.data.paymentId}`).expect(200);
    expect(payment.body.data).toMatchObject({ status: 'completed', configurationId: gimtelId, amount: 2500 });
    const ledger = await t.query(
      "SELECT 1 FROM balance_transactions WHERE source_id = $1 AND type = 'payment'",
      [assigned.body.data.paymentId],
    );
    expect(ledger).toHaveLength(1);
    const events = await t.query(
      `SELECT kind FROM events WHERE kind = 'payment-updated' AND data->>'id' = $1`,
      [assigned.body.data.paymentId],
    );
    expect(events).toHaveLength(1);

    expectText(
      await api().post(`/transfers/${transfer.id}/assign`, { paymentRequestId: request.id }),
      409,
      Messages.transferNotUnmatched,
    );
    const another = await unmatched(2500);
    expectText(
      await api().post(`/transfers/${another.id}/assign`, { paymentRequestId: request.id }),
      409,
      Messages.paymentRequestAlreadyPaid,
    );
  });

  it("assign completes the request's pending transfer payment (the customer paid from another phone)", async () => {
    const request = await newRequest(org.sandbox.secretKey, 2600);
    const pending = await payByTransfer(org.sandbox.publishableKey, request, payerPhone()).expect(200);
    const transfer = await unmatched(2600);
    const assigned = await api()
      .post(`/transfers/${transfer.id}/assign`, { paymentRequestId: request.id })
      .expect(200);
    expect(assigned.body.data.paymentId).toBe(pending.body.data.id);
    expect(await statusOf(pending.body.data.id)).toBe('completed');
  });

  it('return marks an unmatched transfer returned, no ledger credit; only once', async () => {
    const transfer = await unmatched(2700);
    const res = await api().post(`/transfers/${transfer.id}/return`).expect(200);
    expect(res.body.data).toMatchObject({ status: 'returned', paymentId: null });
    expectText(await api().post(`/transfers/${transfer.id}/return`), 409, Messages.transferNotUnmatched);
  });
});

describe('Sandbox', () => {
  it('simulate-transfer on a transfer payment goes through the matching (a transfer is stored, matched)', async () => {
    const paid = await payByTransfer(
      org.sandbox.publishableKey,
      await newRequest(org.sandbox.secretKey),
      payerPhone(),
    );
    const res = await t.http
      .post(`/api/v1/payment/${paid.body.data.id}/simulate-transfer`)
      .set('Authorization', org.sandbox.secretKey)
      .send({})
      .expect(200);
    expect(res.body).toMatchObject({ outcome: 'matched', data: { status: 'completed' } });
    const rows = await t.query('SELECT status FROM transfers WHERE payment_id = $1', [paid.body.data.id]);
    expect(rows).toEqual([{ status: 'matched' }]);
  });

  it('POST /sandbox/transfers injects a transfer to the wallet; Production → 400', async () => {
    const phone = payerPhone();
    const paid = await payByTransfer(
      org.sandbox.publishableKey,
      await newRequest(org.sandbox.secretKey, 4100),
      phone,
    );
    const res = await t.http
      .post('/api/v1/sandbox/transfers')
      .set('Authorization', org.sandbox.secretKey)
      .send({ payerPhone: phone, amount: 4100, payerApp: 'amanty', memo: 'order 12' })
      .expect(200);
    expect(res.body.data).toMatchObject({
      status: 'matched',
      paymentId: paid.body.data.id,
      receivingBank: 'BANKILY',
      receivingPhone: '22220000',
      payerApp: 'amanty',
      memo: 'order 12',
    });
    expectText(
      await t.http
        .post('/api/v1/sandbox/transfers')
        .set('Authorization', org.production.secretKey)
        .send({ payerPhone: phone, amount: 4100 }),
      400,
      Messages.simulatedTransfersSandboxOnly,
    );
  });
});
