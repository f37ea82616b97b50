import { randomUUID } from 'node:crypto';
import { startBankSimulator, BankSimulator } from '../../src/payments/banks/simulator/bank-simulator';
import { PollCursorsRepository } from '../../src/transfer-gateway/poll-cursors.repository';
import { PollTransfersJob } from '../../src/transfer-gateway/poll-transfers.job';
import { TransferPolling } from '../../src/transfer-gateway/transfer-polling.service';
import { startTestApp, TestApp } from '../helpers/app';
import {
  gatewayEnv,
  ledgerOf,
  Merchant,
  notify,
  NOTIFICATIONS_SECRET,
  pendingTransferPayment,
  transferFor,
  transferMerchant,
  transfersOf,
} from './gateway-helpers';

/**
 * Polling of incoming transfers (docs/bank-gateway.md "Incoming transfers"): `GET
 * {gateway}/transfers?since=<cursor>` finds what a lost notification did not bring, the cursor
 * moves only past stored transfers and only by the instance holding the gateway's lease, and a
 * transfer that arrives both ways at once, on two instances, is stored once and matched once.
 */
let sim: BankSimulator;
let a: TestApp;
let b: TestApp;
let m: Merchant;

beforeAll(async () => {
  sim = await startBankSimulator({ notificationsSecret: NOTIFICATIONS_SECRET });
  a = await startTestApp(gatewayEnv(sim));
  b = await startTestApp(gatewayEnv(sim));
  sim.notifyTo(`http://127.0.0.1:${(a.app.getHttpServer().address() as { port: number }).port}/api/v1`);
  m = await transferMerchant(a);
});
afterAll(async () => {
  await a.close();
  await b.close();
  await sim.close();
});
beforeEach(async () => {
  // Every test starts from an empty gateway and cursor: polled transfers are the test's own.
  sim.reset();
  sim.setNotificationMode('drop');
  await a.query(`DELETE FROM transfer_poll_cursors`);
});

const polling = (t: TestApp) => t.app.get(TransferPolling);

it('is a job: poll-transfers, every TRANSFER_POLL_MS, off in the test apps', () => {
  const job = a.app.get(PollTransfersJob);
  expect(job.schedule).toEqual({
    name: 'poll-transfers',
    every: 'TRANSFER_POLL_MS',
    switch: 'TRANSFER_POLL_MS',
  });
  expect(job.isOn).toBe(false);
  expect(job.isScheduled).toBe(false);
});

it('finds a transfer whose notification was dropped, and moves the cursor past it', async () => {
  const p = await pendingTransferPayment(a, m);
  const sent = sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: p.payerPhone, amount: p.amount });
  await sim.notificationsSettled();
  expect(sim.stats().notificationsSent).toBe(0);
  expect(await transfersOf(a, sent.id)).toEqual([]);

  expect(await polling(a).pollAll()).toMatchObject({
    read: 1,
    stored: 1,
    matched: 1,
    busy: 0,
    unavailable: 0,
  });
  expect(await transfersOf(a, sent.id)).toEqual([
    expect.objectContaining({ status: 'matched', payment_id: p.paymentId }),
  ]);
  expect(await ledgerOf(a, p.paymentId)).toEqual({ status: 'completed', completedEvents: 1, ledger: 1 });
  expect(await a.app.get(PollCursorsRepository).cursorOf('bankily')).toBe('1');

  // The next poll asks from the cursor: nothing again.
  expect(await polling(a).pollAll()).toMatchObject({ read: 0, stored: 0 });
  expect(sim.stats().transferPolls).toBe(2);
});

it('reads page after page while the gateway has more, and a notified transfer again is a duplicate', async () => {
  const payments = [];
  for (let i = 0; i < 3; i++) payments.push(await pendingTransferPayment(a, m));
  sim.setNotificationMode('normal');
  const notified = sim.sendTransfer({
    receivingPhone: m.wallet,
    payerPhone: payments[0].payerPhone,
    amount: payments[0].amount,
  });
  await sim.notificationsSettled();
  sim.setNotificationMode('drop');
  for (const p of payments.slice(1))
    sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: p.payerPhone, amount: p.amount });
  // 150 unmatched transfers after them: two pages of 100.
  for (let i = 0; i < 150; i++)
    sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: '22000000', amount: 1 });

  const result = await polling(a).pollAll();
  expect(result).toMatchObject({ read: 153, stored: 152, matched: 2 });
  expect(sim.stats().transferPolls).toBe(2);
  expect(await a.app.get(PollCursorsRepository).cursorOf('bankily')).toBe('153');
  expect(await transfersOf(a, notified.id)).toHaveLength(1);
  for (const p of payments) expect((await ledgerOf(a, p.paymentId)).completedEvents).toBe(1);
});

it('skips an item that is not a transfer, and still moves on', async () => {
  sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: 'not a phone', amount: 10, receivedAt: 'never' });
  const p = await pendingTransferPayment(a, m);
  sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: p.payerPhone, amount: p.amount });
  expect(await polling(a).pollAll()).toMatchObject({ read: 2, invalid: 1, stored: 1, matched: 1 });
  expect(await a.app.get(PollCursorsRepository).cursorOf('bankily')).toBe('2');
});

it('leaves the cursor where it was when the gateway does not answer usably', async () => {
  const p = await pendingTransferPayment(a, m);
  sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: p.payerPhone, amount: p.amount });
  sim.setMode('error');
  expect(await polling(a).pollAll()).toMatchObject({ read: 0, unavailable: 1 });
  expect(await a.app.get(PollCursorsRepository).cursorOf('bankily')).toBeNull();
  sim.setMode('normal');
  expect(await polling(a).pollAll()).toMatchObject({ read: 1, matched: 1 });
});

it('one instance at a time polls a gateway: another holding the lease makes it skip, a lost lease never moves the cursor', async () => {
  const cursors = a.app.get(PollCursorsRepository);
  const other = randomUUID();
  expect(await cursors.claim('bankily', other, 60_000)).toEqual({ cursor: null });
  const p = await pendingTransferPayment(a, m);
  sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: p.payerPhone, amount: p.amount });
  expect(await polling(b).pollAll()).toMatchObject({ read: 0, busy: 1 });
  // A lease taken over (the first ran out): its old holder cannot move the cursor.
  await a.query(
    `UPDATE transfer_poll_cursors SET claimed_until = now() - interval '1 second' WHERE gateway = 'bankily'`,
  );
  const taker = randomUUID();
  expect(await cursors.claim('bankily', taker, 60_000)).toEqual({ cursor: null });
  expect(await cursors.advance('bankily', other, '1', 60_000)).toBe(false);
  expect(await cursors.cursorOf('bankily')).toBeNull();
  expect(await cursors.advance('bankily', taker, '1', 60_000)).toBe(true);
  await cursors.release('bankily', taker);
  // Released: any instance polls again.
  expect(await polling(b).pollAll()).toMatchObject({ busy: 0 });
  // Two instances at once: never both read one gateway.
  const [x, y] = await Promise.all([polling(a).pollAll(), polling(b).pollAll()]);
  expect(x.busy + y.busy).toBeLessThanOrEqual(1);
});

it('the same transfers by notification and by poll at once, on two instances: each stored once, each payment completed once', async () => {
  const payments = [];
  for (let i = 0; i < 20; i++) payments.push(await pendingTransferPayment(a, m));
  const bodies = payments.map((p) => {
    const body = transferFor(m, p);
    sim.sendTransfer({ ...body, receivingPhone: body.receivingPhone });
    return body;
  });
  // Instance a takes every notification while instance b polls the gateway, both at once.
  const [answers] = await Promise.all([
    Promise.all(bodies.map((body) => notify(a, body))),
    polling(b).pollAll(),
  ]);
  expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
  for (const [i, p] of payments.entries()) {
    expect(await transfersOf(a, bodies[i].id)).toEqual([
      expect.objectContaining({ status: 'matched', payment_id: p.paymentId }),
    ]);
    expect(await ledgerOf(a, p.paymentId)).toEqual({ status: 'completed', completedEvents: 1, ledger: 1 });
  }
});
