import autocannon from 'autocannon';
import type { Pool } from 'pg';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { SIGNATURE_HEADER, signNotification } from '../src/payments/banks/notification-signature';
import { createRequest } from './api-requests';
import { CONNECTIONS, Costed, costed, fmtCost, load, Measure, median, SECONDS } from './measure';

/** The secret the bench's Khoums and its "gateway" (this scenario) share. */
export const BENCH_NOTIFICATIONS_SECRET = 'bench-bank-notifications-secret';

/** The sustained notification rate the target is set at (issue #32). */
const RATE = Number(process.env.BENCH_TRANSFER_RATE ?? 200);

/** Rounds of create and match throughput, alternating which goes first. */
const ROUNDS = Number(process.env.BENCH_TRANSFER_ROUNDS ?? 3);

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
 *   against the create-payment-request throughput of Khoums in the same run, in ROUNDS rounds
 *   (BENCH_TRANSFER_ROUNDS, default 3) alternating which goes first, the median round's ratio
 *   (each with its CPU per request, Khoums's process and PostgreSQL's, where a match's cost lies),
 *   and the bare server's create ceiling (target >= 0.5× of each: a match is one insert and one
 *   update, like a create).
 */
export async function transfersScenario(
  port: number,
  pid: number,
  org: CreatedOrganization,
  pool: Pool,
  createCeiling: Measure | undefined,
): Promise<void> {
  const key = org.production.secretKey;
  const wallet = '22334455';
  const environmentId = org.production.environmentId;
  // The owner's set-up of the transfer method (PUT /configuration/gimtel), as its row holds it.
  const {
    rows: [{ id: methodId }],
  } = await pool.query<{ id: string }>(
    `UPDATE payment_methods SET enabled = true, receiving_bank = 'BANKILY', receiving_phone = $2
      WHERE environment_id = $1 AND type = 'gimtel' RETURNING id`,
    [environmentId, wallet],
  );

  let phones = 0;
  /**
   * `count` payment requests each with its pending transfer payment from a wallet of its own,
   * claimed for 15 minutes to the bench's wallet: the rows pay on the transfer method opens.
   */
  const prepare = async (label: string, count: number): Promise<Pending[]> => {
    const first = phones + 1;
    phones += count;
    const { rows } = await pool.query<{ id: string; phone: string; amount: number }>(
      `WITH req AS (
         INSERT INTO payment_requests (id, environment_id, transaction_id, amount)
         SELECT gen_random_uuid(), $1, 'bench-transfer-' || $2 || '-' || i, 100 + i % 5000
           FROM generate_series($3::int, $4::int) i
         RETURNING id, transaction_id, amount
       )
       INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                             status, next_check_at, created_at, updated_at, claim_expires_at, receiving_bank,
                             receiving_phone)
       SELECT gen_random_uuid(), $1, req.id, $5, req.amount,
              '3' || lpad(split_part(req.transaction_id, '-', 4), 7, '0'), 'pending', now(), now(), now(),
              now() + interval '15 minutes', 'BANKILY', $6
         FROM req
       RETURNING id, phone_number AS phone, amount`,
      [environmentId, label, first, first + count - 1, methodId, wallet],
    );
    // As autovacuum would have by then in production: the planner sees the rows just added.
    await pool.query('ANALYZE payments, payment_requests');
    return rows.map((r) => ({ paymentId: r.id, payerPhone: r.phone, amount: r.amount }));
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

  // Warm, as a running service is: its statements prepared on each pool connection (planning the
  // settling statement once takes tens of milliseconds) and its code compiled.
  const warm = await prepare('warm', 3000);
  await load(port, notifications('warm', warm, new Map()).request, 2);

  // Sustained: RATE a second.
  const steady = await prepare('steady', RATE * SECONDS + RATE);
  const steadySent = new Map<string, number>();
  const steadyLoad = notifications('steady', steady, steadySent);
  const steadyResult = await autocannon({
    url: `http://127.0.0.1:${port}`,
    // As many connections as the other loads: at 200/s, a connection waiting on a slow answer must
    // not hold the rate back (autocannon sends one request at a time per connection).
    connections: CONNECTIONS,
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
  // Requests still in flight when the load stopped were set up but never answered: what must have
  // completed is every notification answered 2xx.
  const answered = steadyResult['2xx'];

  // Throughput: as fast as it goes, against Khoums's own create in the same run, in ROUNDS rounds
  // alternating which goes first (the machine's speed moves minute to minute); the ratio is the
  // median of the rounds'.
  await load(port, createRequest(key, 'bench-transfers-create'), 2);
  const rounds: { create: Costed; match: Costed; matchRate: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const fast = await prepare(`fast${round}`, 15_000);
    const measureCreate = () =>
      costed(port, pid, pool, createRequest(key, 'bench-transfers-create'), SECONDS);
    const measureMatch = async () => {
      const before = await matchedCount(pool);
      const fastLoad = notifications(`fast${round}`, fast, new Map());
      const started = Date.now();
      const m = await costed(port, pid, pool, fastLoad.request, SECONDS);
      const seconds = (Date.now() - started) / 1000;
      if (fastLoad.used() > fast.length)
        throw new Error('bench: the throughput part ran out of payments: raise its total');
      return { m, matchRate: ((await matchedCount(pool)) - before) / seconds };
    };
    if (round % 2 === 0) {
      const create = await measureCreate();
      const { m, matchRate } = await measureMatch();
      rounds.push({ create, match: m, matchRate });
    } else {
      const { m, matchRate } = await measureMatch();
      rounds.push({ create: await measureCreate(), match: m, matchRate });
    }
  }
  const ratios = rounds.map((r) => r.matchRate / r.create.rps);
  const vsCreate = median(ratios);
  const { create, match: m, matchRate } = rounds[ratios.indexOf(vsCreate)];
  const vsCeiling = createCeiling ? matchRate / createCeiling.rps : undefined;
  process.stdout.write(
    `Incoming transfers: signed POST /bank-notifications/transfers, each matching a pending payment\n` +
      `  sustained ${achieved.toFixed(0)}/s for ${SECONDS} s (target ${RATE}/s), ${steadyResult.non2xx} non-2xx, ` +
      `${steadyResult.errors + steadyResult.timeouts} errors, ${lags.length} completed of ${answered} answered\n` +
      `  notification -> payment-completed outbox row: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${lags.at(-1)} ms ` +
      `(target p99 <= 1000 ms at ${RATE}/s: ${pct(0.99) <= 1000 && lags.length >= answered && achieved >= RATE * 0.98 ? 'met' : 'NOT met'}); ` +
      `answer p50 ${steadyResult.latency.p50} ms, p99 ${steadyResult.latency.p99} ms\n` +
      `  throughput (${CONNECTIONS} connections), the median of ${ROUNDS} interleaved rounds: ${fmtCost(m)}, ${matchRate.toFixed(0)} matched/s\n` +
      `  create payment request (Khoums, same round): ${fmtCost(create)}\n` +
      `  rounds  ${rounds.map((r, i) => `${r.matchRate.toFixed(0)}/${r.create.rps.toFixed(0)} = ${ratios[i].toFixed(2)}`).join(', ')}\n` +
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
