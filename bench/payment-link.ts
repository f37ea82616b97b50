import type autocannon from 'autocannon';
import type { Pool } from 'pg';
import { compare, fmtCost } from './measure';

/**
 * A payment link's page against the hosted checkout page, in the same run (Khoums only: the ceiling
 * server has no pages): GET /l/:code (the link with its merchant and its places, the methods,
 * Handlebars, a CSRF cookie per visit) must keep at least 0.8× the throughput of GET /checkout/:id.
 * Interleaved rounds, the median ratio. Also the page's weight: its HTML and headers, and the icon,
 * the only thing it loads (docs/payment-links.md: under 60 KB).
 */
export async function paymentLinkScenario(port: number, pid: number, key: string, pool: Pool): Promise<void> {
  const post = async (path: string, body: object) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`bench: POST ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: string; code: string } }).data;
  };
  const session = await post('/checkout-session', {
    transactionId: `bench-link-page-${Date.now()}`,
    amount: 1500,
    phoneNumber: '22123456',
    expiresInMinutes: 1440,
  });
  // With a limit, so the page counts the link's places as a limited link's page does.
  const link = await post('/payment-links', {
    name: 'Thiéboudienne pour 4',
    amount: 1500,
    maxPayments: 1000,
  });
  const get = (path: string): autocannon.Request => ({
    method: 'GET',
    path,
    headers: { 'accept-language': 'fr' },
  });

  const weigh = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'accept-language': 'fr' } });
    const body = Buffer.from(await res.arrayBuffer()).length;
    const headers = [...res.headers].reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
    return { status: res.status, bytes: body + headers };
  };
  const page = await weigh(`/l/${link.code}`);
  const icon = await weigh('/favicon.ico');
  if (page.status !== 200) throw new Error(`bench: GET /l/:code answered ${page.status}`);

  const r = await compare(
    { port, pid, request: get(`/checkout/${session.id}`) },
    { port, pid, request: get(`/l/${link.code}`) },
    pool,
  );
  process.stdout.write(
    `GET /l/:code (payment link page) against GET /checkout/:id (hosted page)\n` +
      `  hosted  ${fmtCost(r.a)}\n  link    ${fmtCost(r.b)}\n` +
      `  ratio   ${r.throughput.toFixed(2)}× the hosted page's throughput (median of 5 interleaved rounds); ` +
      `target >= 0.8: ${r.throughput >= 0.8 ? 'met' : 'NOT met'}\n` +
      `  weight  ${(page.bytes / 1024).toFixed(1)} KB (HTML and headers) + ${(icon.bytes / 1024).toFixed(1)} KB (icon) = ` +
      `${((page.bytes + icon.bytes) / 1024).toFixed(1)} KB with everything it loads; limit 60 KB\n\n`,
  );
}
