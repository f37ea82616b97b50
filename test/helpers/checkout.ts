import type { CheckoutSessionJson } from '../../src/checkout/checkout-session';
import type { TestApp } from './app';

/** Creates a checkout session through the API and returns the response body. */
export async function createSession(
  t: TestApp,
  key: string,
  body: Record<string, unknown>,
): Promise<{ data: CheckoutSessionJson; checkoutUrl: string }> {
  const res = await t.http.post('/api/v1/checkout-session').set('Authorization', key).send(body);
  if (res.status !== 200) throw new Error(`create checkout session: ${res.status} ${res.text}`);
  return res.body;
}

/** Moves a session's deadline into the past, as if the clock had run on. */
export async function makeOverdue(t: TestApp, sessionId: string): Promise<void> {
  await t.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [
    sessionId,
  ]);
}

export async function eventsFor(t: TestApp, kind: string, sessionId: string): Promise<unknown[]> {
  return t.query(`SELECT id FROM events WHERE kind = $1 AND data->>'id' = $2`, [kind, sessionId]);
}

let n = 0;
export const txId = (prefix = 'order') => `${prefix}_${process.pid}_${Date.now()}_${++n}`;
