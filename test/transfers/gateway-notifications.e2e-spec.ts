import { createHmac } from 'node:crypto';
import { Messages } from '../../src/common/errors/messages';
import { startBankSimulator, BankSimulator } from '../../src/payments/banks/simulator/bank-simulator';
import { startTestApp, TestApp } from '../helpers/app';
import { expectText } from '../helpers/http';
import { waitFor } from '../helpers/poll';
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
 * The signed notifications of incoming transfers (docs/bank-gateway.md "Incoming transfers"):
 * `POST /bank-notifications/transfers`, no API key, `x-khoums-signature` over the raw body under
 * BANK_NOTIFICATIONS_SECRET within 5 minutes; idempotent on (receivingBank, id); and the bank
 * simulator's notifications (normal, repeated, reordered, delayed) reaching the matching.
 */
const METRICS_TOKEN = 'metrics-token-for-the-gateway-tests';
let sim: BankSimulator;
let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  sim = await startBankSimulator({ notificationsSecret: NOTIFICATIONS_SECRET });
  t = await startTestApp({ ...gatewayEnv(sim), METRICS_TOKEN });
  sim.notifyTo(`http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}/api/v1`);
  m = await transferMerchant(t);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});
afterEach(async () => {
  sim.setNotificationMode('normal');
  await sim.notificationsSettled();
});

async function scrape(): Promise<string> {
  return (await t.http.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
}
function counted(text: string, labels: Record<string, string>): number {
  const name = 'khoums_transfers_received_total';
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(match[3]);
  }
  return total;
}

describe('the signature', () => {
  it('a valid one: 200 with the transfer, matched to the payment it pays', async () => {
    const p = await pendingTransferPayment(t, m);
    const body = transferFor(m, p);
    const res = await notify(t, body).expect(200);
    expect(res.body.data).toMatchObject({
      bankReference: body.id,
      receivingBank: 'BANKILY',
      receivingPhone: m.wallet,
      payerPhone: p.payerPhone,
      payerApp: 'click',
      amount: p.amount,
      status: 'matched',
      paymentId: p.paymentId,
      paymentRequestId: p.paymentRequestId,
    });
    expect(await ledgerOf(t, p.paymentId)).toEqual({ status: 'completed', completedEvents: 1, ledger: 1 });
  });

  it('missing, malformed, under another secret, stale, from the future or over another body: 401 Invalid signature, nothing stored', async () => {
    const p = await pendingTransferPayment(t, m);
    const body = transferFor(m, p);
    const text = JSON.stringify(body);
    const mac = (secret: string, at: number, signed: string) =>
      createHmac('sha256', secret).update(`${at}.${signed}`).digest('hex');
    // Each header is made as its notification leaves (`now`, in seconds): on a loaded machine the
    // list takes seconds to send, and a time fixed once before it would drift into the tolerance.
    const refused: Array<[string, (now: number) => string | null, string?]> = [
      ['missing', () => null],
      ['empty', () => ''],
      ['malformed', () => 'sha256=abc'],
      ['no time', (now) => `v1=${mac(NOTIFICATIONS_SECRET, now, text)}`],
      ['another secret', (now) => `t=${now},v1=${mac('another-secret-of-16-chars', now, text)}`],
      ['stale', (now) => `t=${now - 301},v1=${mac(NOTIFICATIONS_SECRET, now - 301, text)}`],
      ['future', (now) => `t=${now + 301},v1=${mac(NOTIFICATIONS_SECRET, now + 301, text)}`],
      ['moved time', (now) => `t=${now - 1},v1=${mac(NOTIFICATIONS_SECRET, now, text)}`],
      [
        'tampered body',
        (now) => `t=${now},v1=${mac(NOTIFICATIONS_SECRET, now, text)}`,
        text.replace(`${p.amount}`, `${p.amount + 1}`),
      ],
      // The same JSON, re-serialized with other spaces: the MAC is over the bytes sent.
      [
        're-serialized body',
        (now) => `t=${now},v1=${mac(NOTIFICATIONS_SECRET, now, text)}`,
        JSON.stringify(body, null, 1),
      ],
    ];
    for (const [what, header, sent] of refused) {
      const res = await notify(t, sent ?? text, header(Math.floor(Date.now() / 1000)));
      expect({ what, status: res.status, text: res.text }).toEqual({
        what,
        status: 401,
        text: Messages.invalidSignature,
      });
    }
    expect(await transfersOf(t, body.id)).toEqual([]);
    expect((await ledgerOf(t, p.paymentId)).status).toBe('pending');
    // 4:59 old is still within the tolerance.
    await notify(t, text, undefined, Math.floor(Date.now() / 1000) - 299).expect(200);
    expect(await transfersOf(t, body.id)).toHaveLength(1);
  });

  it('is checked before the body: an unsigned invalid body is 401, a signed one 422 or 400, never 500', async () => {
    expectText(await notify(t, { id: 1 }, null), 401, Messages.invalidSignature);
    const valid = {
      id: 'gim_valid_shape',
      receivingBank: 'BANKILY',
      receivingPhone: m.wallet,
      payerPhone: '22123456',
      payerApp: 'click',
      amount: 10,
      receivedAt: new Date().toISOString(),
    };
    const invalid: Array<Record<string, unknown> | unknown[]> = [
      {},
      [],
      { ...valid, amount: 'ten' },
      { ...valid, amount: 0 },
      { ...valid, amount: 100_000_001 },
      { ...valid, amount: 10.5 },
      { ...valid, receivedAt: 'yesterday' },
      { ...valid, id: 'x'.repeat(201) },
      { ...valid, id: '' },
      { ...valid, payerPhone: 'not a phone' },
      { ...valid, payerPhone: '12345678' },
      { ...valid, receivingPhone: 22334455 },
      { ...valid, receivingBank: 'bank ily!' },
      { ...valid, payerApp: 'a'.repeat(61) },
      { ...valid, memo: 'm'.repeat(501) },
      { ...valid, memo: 'nul \u0000' },
    ];
    for (const body of invalid) {
      const res = await notify(t, body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
    }
    expect(await transfersOf(t, valid.id)).toEqual([]);
    expect((await notify(t, '{"id": ')).status).toBe(400);
  });

  it('reads phones as the API does (+222 and spaces stripped) and bank codes in any case', async () => {
    const p = await pendingTransferPayment(t, m);
    const body = transferFor(m, p, {
      payerPhone: `+222 ${p.payerPhone.slice(0, 4)} ${p.payerPhone.slice(4)}`,
      receivingPhone: `00222${m.wallet}`,
      receivingBank: 'Bankily',
    });
    const res = await notify(t, body).expect(200);
    expect(res.body.data).toMatchObject({
      payerPhone: p.payerPhone,
      receivingPhone: m.wallet,
      receivingBank: 'BANKILY',
      status: 'matched',
    });
  });

  it('is refused altogether without BANK_NOTIFICATIONS_SECRET', async () => {
    const bare = await startTestApp({ BANK_BANKILY_URL: sim.url });
    try {
      const p = await pendingTransferPayment(bare, m);
      expectText(await notify(bare, transferFor(m, p)), 401, Messages.invalidSignature);
    } finally {
      await bare.close();
    }
  });

  it('never reaches the logs, nor does the secret', async () => {
    const p = await pendingTransferPayment(t, m);
    const header = 't=1,v1=' + 'ab'.repeat(32);
    await notify(t, transferFor(m, p), header).expect(401);
    await notify(t, transferFor(m, p)).expect(200);
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(NOTIFICATIONS_SECRET);
    expect(logs).not.toContain('ab'.repeat(32));
    expect(logs).not.toContain('v1=');
  });
});

describe('idempotency on (receivingBank, id)', () => {
  it('the same notification again: 200 with the same transfer, stored once, the payment completed once', async () => {
    const p = await pendingTransferPayment(t, m);
    const body = transferFor(m, p);
    const before = await scrape();
    const first = await notify(t, body).expect(200);
    const again = await notify(t, body).expect(200);
    // The same reference in another case of the bank's code is the same transfer.
    const lower = await notify(t, { ...body, receivingBank: 'bankily' }).expect(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(lower.body.data.id).toBe(first.body.data.id);
    expect(await transfersOf(t, body.id)).toHaveLength(1);
    expect(await ledgerOf(t, p.paymentId)).toEqual({ status: 'completed', completedEvents: 1, ledger: 1 });
    const after = await scrape();
    const moved = (labels: Record<string, string>) => counted(after, labels) - counted(before, labels);
    expect(moved({ outcome: 'matched', source: 'notification' })).toBe(1);
    expect(moved({ outcome: 'duplicate', source: 'notification' })).toBe(2);
    expect(after).toMatch(/khoums_transfer_to_payment_seconds_count \d+/);
  });

  it('a duplicate while the first is being stored (many at once): one row, one completion', async () => {
    const p = await pendingTransferPayment(t, m);
    const body = transferFor(m, p);
    const answers = await Promise.all(Array.from({ length: 8 }, () => notify(t, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(await transfersOf(t, body.id)).toHaveLength(1);
    expect(await ledgerOf(t, p.paymentId)).toEqual({ status: 'completed', completedEvents: 1, ledger: 1 });
  });
});

describe("the simulator's notifications", () => {
  const stored = (id: string) => waitFor(async () => (await transfersOf(t, id))[0], `transfer ${id} stored`);

  it('a transfer sent to the wallet is notified, signed, and completes its payment', async () => {
    const p = await pendingTransferPayment(t, m);
    const sent = sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: p.payerPhone, amount: p.amount });
    expect((await stored(sent.id)).status).toBe('matched');
    expect(await ledgerOf(t, p.paymentId)).toEqual({ status: 'completed', completedEvents: 1, ledger: 1 });
  });

  it('repeated notifications: stored once, matched once', async () => {
    sim.setNotificationMode('repeat', { copies: 4 });
    const p = await pendingTransferPayment(t, m);
    const before = sim.stats();
    const sent = sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: p.payerPhone, amount: p.amount });
    await sim.notificationsSettled();
    expect(sim.stats().notificationsAccepted - before.notificationsAccepted).toBe(4);
    expect(await transfersOf(t, sent.id)).toEqual([
      expect.objectContaining({ status: 'matched', payment_id: p.paymentId }),
    ]);
    expect(await ledgerOf(t, p.paymentId)).toEqual({ status: 'completed', completedEvents: 1, ledger: 1 });
  });

  it('reordered notifications: each transfer still pays its own payment', async () => {
    sim.setNotificationMode('reorder');
    const a = await pendingTransferPayment(t, m);
    const b = await pendingTransferPayment(t, m);
    const first = sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: a.payerPhone, amount: a.amount });
    const second = sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: b.payerPhone, amount: b.amount });
    await sim.notificationsSettled();
    const [x] = await transfersOf(t, first.id);
    const [y] = await transfersOf(t, second.id);
    expect(x).toMatchObject({ status: 'matched', payment_id: a.paymentId });
    expect(y).toMatchObject({ status: 'matched', payment_id: b.paymentId });
    // The second one's notification arrived first.
    const [order] = await t.query<{ later_first: boolean }>(
      `SELECT (SELECT created_at FROM transfers WHERE id = $2) < (SELECT created_at FROM transfers WHERE id = $1) AS later_first`,
      [x.id, y.id],
    );
    expect(order.later_first).toBe(true);
  });

  it('a delayed notification arrives late and is stored then', async () => {
    sim.setNotificationMode('delay', { delayMs: 300 });
    const p = await pendingTransferPayment(t, m);
    const before = sim.stats().notificationsSent;
    const sent = sim.sendTransfer({ receivingPhone: m.wallet, payerPhone: p.payerPhone, amount: p.amount });
    // Not sent with the transfer: after the delay.
    expect(sim.stats().notificationsSent).toBe(before);
    await sim.notificationsSettled();
    expect(sim.stats().notificationsSent).toBe(before + 1);
    expect((await stored(sent.id)).status).toBe('matched');
  });

  it('POST /simulator/transfers sends a transfer over HTTP; a wrong body is 400', async () => {
    const p = await pendingTransferPayment(t, m);
    const res = await fetch(`${sim.url}/simulator/transfers`, {
      method: 'POST',
      body: JSON.stringify({
        receivingPhone: m.wallet,
        payerPhone: p.payerPhone,
        amount: p.amount,
        payerApp: 'amanty',
      }),
    });
    expect(res.status).toBe(200);
    const sent = (await res.json()) as { id: string; payerApp: string };
    expect(sent.payerApp).toBe('amanty');
    await sim.notificationsSettled();
    expect((await stored(sent.id)).status).toBe('matched');
    const bad = await fetch(`${sim.url}/simulator/transfers`, {
      method: 'POST',
      body: JSON.stringify({ amount: 'x' }),
    });
    expect(bad.status).toBe(400);
  });
});
