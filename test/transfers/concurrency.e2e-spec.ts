import { randomUUID } from 'node:crypto';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import type { IncomingTransfer } from '../../src/transfers/transfer';
import { TransfersService } from '../../src/transfers/transfers.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { txId } from '../helpers/checkout';

/**
 * Matching under concurrency, with two instances of the application on one database (as in
 * production): a transfer is stored once and matched at most once, a payment completed at most
 * once, whatever arrives at once on either instance (docs/transfers.md "Matching").
 */

let a: TestApp;
let b: TestApp;
let org: CreatedOrganization;
let wallet: string;
let gimtelId: string;
let phoneSeq = 0;

function uniquePhone(): string {
  phoneSeq += 1;
  return `3${String((process.pid * 7919 + phoneSeq) % 10_000_000).padStart(7, '0')}`;
}

beforeAll(async () => {
  a = await startTestApp({ DB_POOL_SIZE: '20' });
  b = await startTestApp({ DB_POOL_SIZE: '20' });
  org = await newTenant(a);
  // A Production wallet of its own: live transfers find this environment by it.
  wallet = uniquePhone();
  const res = await a.http
    .put('/api/v1/configuration/gimtel')
    .set('Authorization', org.production.secretKey)
    .send({ receivingBank: 'BANKILY', receivingPhone: wallet })
    .expect(200);
  gimtelId = res.body.data.id;
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function pendingTransferPayment(amount: number, payerPhone: string, app = a) {
  const transactionId = txId('race');
  const request = await app.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.production.secretKey)
    .send({ transactionId, amount })
    .expect(200);
  const paid = await app.http
    .post('/api/v1/payment')
    .set('Authorization', org.production.secretKey)
    .send({ transactionId, phoneNumber: payerPhone, configurationId: gimtelId })
    .expect(200);
  return { requestId: request.body.data.id as string, paymentId: paid.body.data.id as string };
}

function transferTo(payerPhone: string, amount: number): IncomingTransfer {
  return {
    bankReference: `RACE-${randomUUID()}`,
    receivingBank: 'BANKILY',
    receivingPhone: wallet,
    payerPhone,
    payerApp: 'sedad',
    amount,
    receivedAt: new Date(),
  };
}

const service = (app: TestApp) => app.app.get(TransfersService);

async function completedEventsOf(paymentId: string): Promise<number> {
  const rows = await a.query(
    `SELECT count(*)::int AS n FROM events WHERE kind = 'payment-updated' AND data->>'id' = $1 AND data->>'status' = 'completed'`,
    [paymentId],
  );
  return rows[0].n;
}

it('the same transfer received at once on two instances (a notification and a poll, repeated) is stored once and completes its payment once', async () => {
  const phone = uniquePhone();
  const { paymentId, requestId } = await pendingTransferPayment(5100, phone);
  const incoming = transferTo(phone, 5100);
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) => service(i % 2 ? b : a).receive({ ...incoming })),
  );
  expect(results.filter((r) => r.created)).toHaveLength(1);
  expect(new Set(results.map((r) => r.transfer.id)).size).toBe(1);
  const stored = await a.query('SELECT status, payment_id FROM transfers WHERE bank_reference = $1', [
    incoming.bankReference,
  ]);
  expect(stored).toEqual([{ status: 'matched', payment_id: paymentId }]);
  expect(await completedEventsOf(paymentId)).toBe(1);
  const ledger = await a.query('SELECT count(*)::int AS n FROM balance_transactions WHERE source_id = $1', [
    paymentId,
  ]);
  expect(ledger[0].n).toBe(1);
  const request = await a.query('SELECT status FROM payment_requests WHERE id = $1', [requestId]);
  expect(request[0].status).toBe('paid');
});

it('200 transfers for 200 payments at once, on two instances: 200 matched, each payment completed once', async () => {
  const payments: { paymentId: string; phone: string }[] = [];
  for (let i = 0; i < 200; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: 20 }, async (_, j) => {
        const phone = uniquePhone();
        const { paymentId } = await pendingTransferPayment(6000 + i + j, phone, j % 2 ? b : a);
        return { paymentId, phone, amount: 6000 + i + j };
      }),
    );
    payments.push(...batch.map(({ paymentId, phone }) => ({ paymentId, phone })));
  }
  // All at once, each instance working on as many as its pool serves (more would only queue for
  // a connection, past the pool's 5 s wait on a loaded machine: the gateway's retry's business).
  const queues = [a, b].map((app, k) => payments.filter((_, i) => i % 2 === k).map((p) => ({ app, ...p })));
  const results: Awaited<ReturnType<TransfersService['receive']>>[] = [];
  await Promise.all(
    queues.flatMap((queue) =>
      Array.from({ length: 15 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const amount = 6000 + payments.findIndex((p) => p.paymentId === next!.paymentId);
          results.push(await service(next.app).receive(transferTo(next.phone, amount)));
        }
      }),
    ),
  );
  expect(results.filter((r) => r.created && r.transfer.status === 'matched')).toHaveLength(200);
  expect(new Set(results.map((r) => r.transfer.paymentId))).toEqual(
    new Set(payments.map((p) => p.paymentId)),
  );
  const completed = await a.query(
    `SELECT count(*)::int AS n FROM payments WHERE id = ANY($1::uuid[]) AND status = 'completed'`,
    [payments.map((p) => p.paymentId)],
  );
  expect(completed[0].n).toBe(200);
}, 120_000);

it('two transfers for one payment at once: one matched, the other unmatched', async () => {
  const phone = uniquePhone();
  const { paymentId } = await pendingTransferPayment(5200, phone);
  const [x, y] = await Promise.all([
    service(a).receive(transferTo(phone, 5200)),
    service(b).receive(transferTo(phone, 5200)),
  ]);
  expect([x.transfer.status, y.transfer.status].sort()).toEqual(['matched', 'unmatched']);
  expect(await completedEventsOf(paymentId)).toBe(1);
});

it('two pending payments of one payer and amount, transfers at once: both unmatched, both payments pending', async () => {
  const phone = uniquePhone();
  const one = await pendingTransferPayment(5300, phone);
  const two = await pendingTransferPayment(5300, phone, b);
  const [x, y] = await Promise.all([
    service(a).receive(transferTo(phone, 5300)),
    service(b).receive(transferTo(phone, 5300)),
  ]);
  expect([x.transfer.status, y.transfer.status]).toEqual(['unmatched', 'unmatched']);
  const rows = await a.query(`SELECT status FROM payments WHERE id = ANY($1::uuid[])`, [
    [one.paymentId, two.paymentId],
  ]);
  expect(rows.map((r) => r.status)).toEqual(['pending', 'pending']);
});

it('an assignment racing a match pays the request once: one wins, the other is refused or unmatched', async () => {
  for (let round = 0; round < 5; round += 1) {
    const phone = uniquePhone();
    const amount = 5400 + round;
    const { requestId, paymentId } = await pendingTransferPayment(amount, phone);
    // A stray transfer of the same amount, waiting in the inbox.
    const stray = await service(a).receive(transferTo(uniquePhone(), amount));
    expect(stray.transfer.status).toBe('unmatched');
    const [assign, match] = await Promise.all([
      b.http
        .post(`/api/v1/transfers/${stray.transfer.id}/assign`)
        .set('Authorization', org.production.secretKey)
        .send({ paymentRequestId: requestId }),
      service(a).receive(transferTo(phone, amount)),
    ]);
    if (assign.status === 200) {
      expect(match.transfer.status).toBe('unmatched');
      expect(assign.body.data.paymentId).toBe(paymentId);
    } else {
      expect(assign.status).toBe(409);
      expect(match.transfer.status).toBe('matched');
    }
    expect(await completedEventsOf(paymentId)).toBe(1);
    const completed = await a.query(
      `SELECT count(*)::int AS n FROM payments WHERE payment_request_id = $1 AND status = 'completed'`,
      [requestId],
    );
    expect(completed[0].n).toBe(1);
  }
}, 60_000);
