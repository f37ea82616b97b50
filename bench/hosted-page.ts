import autocannon from 'autocannon';
import { fmt, load } from './measure';

/**
 * The hosted page: Khoums only (the ceiling server has no pages). One open session, rendered in
 * French (the session read with its merchant, the methods, Handlebars, a CSRF cookie per visit).
 */
export async function hostedPageScenario(port: number, key: string): Promise<void> {
  const created = await fetch(`http://127.0.0.1:${port}/api/v1/checkout-session`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify({
      transactionId: `bench-page-${Date.now()}`,
      amount: 1500,
      phoneNumber: '22123456',
      expiresInMinutes: 1440,
    }),
  });
  if (!created.ok)
    throw new Error(`bench: create checkout session: ${created.status} ${await created.text()}`);
  const { data: session } = (await created.json()) as { data: { id: string } };
  const page: autocannon.Request = {
    method: 'GET',
    path: `/checkout/${session.id}`,
    headers: { 'accept-language': 'fr' },
  };
  await load(port, page, 2); // warm-up
  const p = await load(port, page);
  process.stdout.write(`GET /checkout/:id (hosted page renders)\n  khoums  ${fmt(p)}\n\n`);
}
