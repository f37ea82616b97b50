import autocannon from 'autocannon';
import type { Pool } from 'pg';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { SIGNATURE_HEADER, signNotification } from '../src/payments/banks/notification-signature';
import { createRequest } from './api-requests';
import { CONNECTIONS, fmt, load, Measure, SECONDS } from './measure';

/** The secret the bench's Khoums and its "gateway" (this scenario) share. */
export const BENCH_NOTIFICATIONS_SECRET = 'bench-bank-notifications-secret';

/** The sustained notification rate the target is set at (issue #32). */
const RATE = Number(process.env.BENCH_TRANSFER_RATE ?? 200);

interface Pending {
  paymentId: string;
  payerPhone: string;
  amount: number;
}

/**
 * Incoming transfers (docs/bank-gateway.md "Incoming transfers"), in two parts on one Production
 * wallet of the bench's organization, each notification paying a pending transfer payment of its
 * own (matching: the transfer stored, the payment completed, the request paid, the ledger entry,
 * the events):
 * - sustained: RATE (200) signed notifications a second for SECONDS; the time from each
 *   notification's sending to its payment-completed event's outbox row (`events.created_at`),
 *   p50/p99 (target p99 <= 1 s), and to the 200 answer;
 * - throughput: notifications as fast as CONNECTIONS connections send them, matched per second,
 *   against the create-payment-request throughput of Khoums measured just before in the same run,
 *   and the bare server's create ceiling (target >= 0.5× of each: a match is one insert and one
 *   update, like a create).
 */
export async function transfersScenario(
  port: number,
  org: CreatedOrganization,
  pool: Pool,
  createCeiling: Measure | undefined,
): Promise<void> {
  const key = org.production.secretKey;
  const api = async (method: string, path: string, body?: object) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method,
      headers: { authorization: key, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`bench: ${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: Record<string, unknown> & { id: string } };
  };
  const wallet = '22334455';
  await api('PUT', '/configuration/gimtel', {
    receivingBank: 'BANKILY',
    receivingPhone: wallet,
    enabled: true,
  });
  const methods = (await api('GET', '/payment-methods')) as unknown as {
    data: Array<{ id: string; type: string }>;
  };
  const methodId = methods.data.find((x) => x.type === 'gimtel')!.id;

  let phones = 0;
  /** `count` pending transfer payments, each from a wallet of its own, 32 made at once. */
  const prepare = async (label: string, count: number): Promise<Pending[]> => {
    const out: Pending[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < count) {
          const i = next++;
          const transactionId = `bench-transfer-${label}-${i}`;
          const amount = 100 + (i % 5000);
          const payerPhone = `3${String(++phones).padStart(7, '0')}`;
          await api('POST', '/payment-request', { transactionId, amount });
          const pay = await api('POST', '/payment', {
            transactionId,
            phoneNumber: payerPhone,
            configurationId: methodId,
          });
          out.push({ paymentId: pay.data.id, payerPhone, amount });
        }
      }),
    );
    return out;
  };

  /** A notification request paying the next of `pending`, signed; `sent` records when each left. */
  const notifications = (label: string, pending: Pending[], sent: Map<string, number>) => {
    let next = 0;
    const request: autocannon.Request = {
      method: 'POST',
      path: '/api/v1/bank-notifications/transfers',
      setupRequest: (req) => {
        const p = pending[next++ % pending.length];
        const body = JSON.stringify({
          id: `bench-${label}-${next}`,
          receivingBank: 'BANKILY',
          receivingPhone: wallet,
          payerPhone: p.payerPhone,
          payerApp: 'click',
          amount: p.amount,
          receivedAt: new Date().toISOString(),
        });
        if (!sent.has(p.paymentId)) sent.set(p.paymentId, Date.now());
        return {
          ...req,
          headers: {
            'content-type': 'application/json',
            [SIGNATURE_HEADER]: signNotification(
              BENCH_NOTIFICATIONS_SECRET,
              body,
              Math.floor(Date.now() / 1000),
            ),
          },
          body,
        };
      },
    };
    return { request, used: () => next };
  };

  // Sustained: RATE a second.
  const steady = await prepare('steady', RATE * SECONDS + RATE);
  const steadySent = new Map<string, number>();
  const steadyLoad = notifications('steady', steady, steadySent);
  const steadyResult = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 20,
    overallRate: RATE,
    duration: SECONDS,
    requests: [steadyLoad.request],
  });
  if (steadyLoad.used() > steady.length) throw new Error('bench: the sustained part ran out of payments');
  const ids = [...steadySent.keys()];
  const { rows } = await pool.query<{ id: string; at: Date }>(
    `SELECT data->>'id' AS id, min(created_at) AS at FROM events
      WHERE kind = 'payment-updated' AND data->>'status' = 'completed' AND data->>'id' = ANY($1)
      GROUP BY 1`,
    [ids],
  );
  const lags = rows.map((r) => r.at.getTime() - steadySent.get(r.id)!).sort((x, y) => x - y);
  const pct = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? NaN;
  const achieved = steadyResult.requests.total / SECONDS;

  // Throughput: as fast as it goes, against Khoums's own create in the same run.
  const fast = await prepare('fast', 15_000);
  await load(port, createRequest(key, 'bench-transfers-create'), 2);
  const create = await load(port, createRequest(key, 'bench-transfers-create'));
  const before = await matchedCount(pool);
  const fastLoad = notifications('fast', fast, new Map());
  const started = Date.now();
  const m = await load(port, fastLoad.request);
  const seconds = (Date.now() - started) / 1000;
  if (fastLoad.used() > fast.length)
    throw new Error('bench: the throughput part ran out of payments: raise its total');
  const matched = (await matchedCount(pool)) - before;
  const matchRate = matched / seconds;
  const vsCreate = matchRate / create.rps;
  const vsCeiling = createCeiling ? matchRate / createCeiling.rps : undefined;
  process.stdout.write(
    `Incoming transfers: signed POST /bank-notifications/transfers, each matching a pending payment\n` +
      `  sustained ${achieved.toFixed(0)}/s for ${SECONDS} s (target ${RATE}/s), ${steadyResult.non2xx} non-2xx, ` +
      `${steadyResult.errors + steadyResult.timeouts} errors, ${lags.length}/${ids.length} completed\n` +
      `  notification -> payment-completed outbox row: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${lags.at(-1)} ms ` +
      `(target p99 <= 1000 ms: ${pct(0.99) <= 1000 && lags.length === ids.length ? 'met' : 'NOT met'}); ` +
      `answer p50 ${steadyResult.latency.p50} ms, p99 ${steadyResult.latency.p99} ms\n` +
      `  throughput (${CONNECTIONS} connections): ${fmt(m)}, ${matchRate.toFixed(0)} matched/s\n` +
      `  create payment request (Khoums, same run): ${fmt(create)}\n` +
      `  ratio   ${vsCreate.toFixed(2)}× Khoums's create` +
      (vsCeiling === undefined ? '' : `, ${vsCeiling.toFixed(2)}× the create ceiling`) +
      ` (target >= 0.50: ${vsCreate >= 0.5 && (vsCeiling === undefined || vsCeiling >= 0.5) ? 'met' : 'NOT met'})\n\n`,
  );
}

async function matchedCount(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM transfers WHERE status = 'matched'`,
  );
  return Number(rows[0].n);
}
