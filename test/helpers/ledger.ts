import type { TestApp } from './app';

let seq = 0;

/**
 * A payment request of `amount` paid through POST /payment with Sedad from `phoneNumber` (the
 * Sandbox bank's rules: 9001 declined, 9003 pending, 9004 completed but its refunds fail); the
 * payment as the API shows it (a declined one read from the list).
 */
export async function paidPayment(
  t: TestApp,
  key: { secretKey: string; publishableKey: string },
  amount: number,
  phoneNumber = '22222222',
): Promise<{ id: string; status: string; completedAt: string; amount: number; transactionId: string }> {
  seq += 1;
  const transactionId = `ledger_${process.pid}_${Date.now()}_${seq}`;
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', key.secretKey)
    .send({ transactionId, amount })
    .expect(200);
  return payRequest(t, key, transactionId, phoneNumber);
}

/** Pays an existing payment request (its transactionId) with Sedad. */
export async function payRequest(
  t: TestApp,
  key: { secretKey: string; publishableKey: string },
  transactionId: string,
  phoneNumber = '22222222',
): Promise<{ id: string; status: string; completedAt: string; amount: number; transactionId: string }> {
  const methods = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', key.publishableKey)
    .expect(200);
  const sedad = (methods.body.data as { type: string; id: string }[]).find((m) => m.type === 'sedad')!;
  const res = await t.http
    .post('/api/v1/payment')
    .set('Authorization', key.publishableKey)
    .send({ transactionId, phoneNumber, configurationId: sedad.id });
  if (res.status === 200) return res.body.data;
  // Declined by the bank (502): the payment as the API shows it.
  const list = await t.http
    .get(`/api/v1/payment?transactionId=${encodeURIComponent(transactionId)}`)
    .set('Authorization', key.secretKey)
    .expect(200);
  return list.body.data[0];
}
