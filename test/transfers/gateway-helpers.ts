import { randomInt, randomUUID } from 'node:crypto';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { signNotification, SIGNATURE_HEADER } from '../../src/payments/banks/notification-signature';
import type { BankSimulator } from '../../src/payments/banks/simulator/bank-simulator';
import { newTenant, TestApp } from '../helpers/app';

/** The secret the suites' gateways and apps share. */
export const NOTIFICATIONS_SECRET = 'bank-notifications-secret-for-the-tests';

/** A fresh 8-digit wallet number (Mauritanian mobile numbers start with 2, 3 or 4). */
export function walletNumber(): string {
  return `${randomInt(2, 5)}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

/** The apps' settings for incoming transfers through `sim` (polling by the tests themselves). */
export function gatewayEnv(sim: BankSimulator): Record<string, string> {
  return { BANK_NOTIFICATIONS_SECRET: NOTIFICATIONS_SECRET, BANK_BANKILY_URL: sim.url };
}

export interface Merchant {
  org: CreatedOrganization;
  key: string;
  wallet: string;
  /** The Production transfer method's id. */
  methodId: string;
}

/**
 * A verified organization whose Production receives transfers at a wallet of its own (BANKILY),
 * its transfer method turned on as the owner does.
 */
export async function transferMerchant(t: TestApp): Promise<Merchant> {
  const org = await newTenant(t);
  const wallet = walletNumber();
  const [method] = await t.query<{ id: string }>(
    `UPDATE payment_methods SET enabled = true, receiving_bank = 'BANKILY', receiving_phone = $2
      WHERE environment_id = $1 AND type = 'gimtel' RETURNING id`,
    [org.production.environmentId, wallet],
  );
  return { org, key: org.production.secretKey, wallet, methodId: method.id };
}

export interface PendingTransferPayment {
  transactionId: string;
  paymentRequestId: string;
  paymentId: string;
  payerPhone: string;
  amount: number;
}

/**
 * A payment request of `amount` and its pending transfer payment from a fresh payer's wallet,
 * claimed for 15 minutes to the merchant's wallet (as pay on the transfer method opens it).
 */
export async function pendingTransferPayment(
  t: TestApp,
  m: Merchant,
  amount = randomInt(100, 100_000),
  payerPhone = walletNumber(),
): Promise<PendingTransferPayment> {
  const transactionId = `gw-${randomUUID()}`;
  const pr = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', m.key)
    .send({ transactionId, amount })
    .expect(200);
  const [payment] = await t.query<{ id: string }>(
    `INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number, status,
                           next_check_at, created_at, updated_at, claim_expires_at, receiving_bank, receiving_phone)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', now(), now(), now(), now() + interval '15 minutes', 'BANKILY', $7)
     RETURNING id`,
    [randomUUID(), m.org.production.environmentId, pr.body.data.id, m.methodId, amount, payerPhone, m.wallet],
  );
  return { transactionId, paymentRequestId: pr.body.data.id, paymentId: payment.id, payerPhone, amount };
}

/** A transfer as a gateway sends it, paying `p` into `m`'s wallet. */
export function transferFor(m: Merchant, p: PendingTransferPayment, over: Record<string, unknown> = {}) {
  return {
    id: `gim_${randomUUID()}`,
    receivingBank: 'BANKILY',
    receivingPhone: m.wallet,
    payerPhone: p.payerPhone,
    payerApp: 'click',
    amount: p.amount,
    receivedAt: new Date().toISOString(),
    ...over,
  };
}

/** POSTs a notification as a gateway does: `body` as sent, signed (unless a header is given). */
export function notify(
  t: TestApp,
  body: object | string,
  header?: string | null,
  at = Math.floor(Date.now() / 1000),
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const req = t.http.post('/api/v1/bank-notifications/transfers').set('content-type', 'application/json');
  const signature = header === undefined ? signNotification(NOTIFICATIONS_SECRET, text, at) : header;
  if (signature !== null) void req.set(SIGNATURE_HEADER, signature);
  return req.send(text);
}

/** What the database holds about a payment and the transfers of a bank reference. */
export async function ledgerOf(t: TestApp, paymentId: string) {
  const [row] = await t.query<{
    status: string;
    completed_events: string;
    ledger: string;
  }>(
    `SELECT p.status,
            (SELECT count(*) FROM events e WHERE e.kind = 'payment-updated' AND e.data->>'id' = p.id::text
                AND e.data->>'status' = 'completed') AS completed_events,
            (SELECT count(*) FROM balance_transactions b WHERE b.payment_id = p.id AND b.type = 'payment') AS ledger
       FROM payments p WHERE p.id = $1`,
    [paymentId],
  );
  return { status: row.status, completedEvents: Number(row.completed_events), ledger: Number(row.ledger) };
}

/** The stored transfers of a bank reference. */
export function transfersOf(t: TestApp, bankReference: string) {
  return t.query<{ id: string; status: string; payment_id: string | null }>(
    `SELECT id, status, payment_id FROM transfers WHERE bank_reference = $1`,
    [bankReference],
  );
}
