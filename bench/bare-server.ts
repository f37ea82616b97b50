import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';
import { CEILING_SCHEMA, ceilingEnvironment } from './ceiling-schema';

/**
 * The fixed ceilings (bench/README.md): bare node:http + pg on the minimal schema of
 * ceiling-schema.ts, each hot path the least durable work it needs, in one statement (one round
 * trip, one transaction committed as PostgreSQL commits by default):
 * - create: one request row and one event row;
 * - pay: the request marked paid, its payment, its ledger row and one event;
 * - look-up: a read by the unique transaction key.
 * The key stands for its environment (a hash, kept in memory, as Khoums caches its keys). Bodies
 * are checked for their types only. Started by bench/run.ts on a database of its own.
 */

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 20),
});

const environments = new Map<string, string>();
function environmentOf(key: string): string {
  let env = environments.get(key);
  if (!env) environments.set(key, (env = ceilingEnvironment(key)));
  return env;
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
}

const CREATE = `WITH created AS (
    INSERT INTO requests (id, environment_id, transaction_id, amount, phone_number, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (environment_id, transaction_id) DO NOTHING RETURNING id
  ), event AS (
    INSERT INTO events (id, environment_id, kind, data, created_at)
    SELECT $7, $2, 'payment-request-created', $8, $6 FROM created
  ) SELECT id FROM created`;

const PAY = `WITH paid AS (
    UPDATE requests SET status = 'paid', paid_at = $4, updated_at = $4, phone_number = $3
     WHERE environment_id = $1 AND transaction_id = $2 AND status = 'pending'
    RETURNING id, amount
  ), payment AS (
    INSERT INTO payments (id, request_id, amount, phone_number, status, bank_reference, created_at)
    SELECT $5, id, amount, $3, 'completed', 'sbx', $4 FROM paid RETURNING id, amount
  ), ledger AS (
    INSERT INTO ledger (id, source_id, amount, fee, net, available_on, created_at)
    SELECT $6, id, amount, 0, amount, $4::timestamptz + interval '1 day', $4 FROM payment
  ), event AS (
    INSERT INTO events (id, environment_id, kind, data, created_at)
    SELECT $7, $1, 'payment-completed', jsonb_build_object('id', payment.id, 'transactionId', $2::text,
           'amount', payment.amount, 'status', 'completed'), $4 FROM payment
  ) SELECT id, amount FROM payment`;

const LOOK_UP = `SELECT id, transaction_id, amount, phone_number, status, paid_at, created_at, updated_at
  FROM requests WHERE environment_id = $1 AND transaction_id = $2`;

async function handle(req: IncomingMessage, res: ServerResponse) {
  const key = req.headers.authorization;
  if (!key) return send(res, 401, 'API key is required');
  const environmentId = environmentOf(key);

  if (req.method === 'POST' && req.url === '/api/v1/payment-request') {
    const body = await readJson(req);
    if (typeof body.transactionId !== 'string' || !Number.isInteger(body.amount))
      return send(res, 422, 'invalid');
    const now = new Date();
    const pr = {
      id: randomUUID(),
      transactionId: body.transactionId,
      amount: body.amount,
      phoneNumber: null,
      status: 'pending',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const { rows } = await pool.query({
      name: 'create',
      text: CREATE,
      values: [
        pr.id,
        environmentId,
        pr.transactionId,
        pr.amount,
        null,
        now,
        randomUUID(),
        JSON.stringify(pr),
      ],
    });
    if (!rows.length) return send(res, 409, 'conflict');
    return send(res, 200, { data: pr });
  }
  if (req.method === 'POST' && req.url === '/api/v1/payment') {
    const body = await readJson(req);
    if (typeof body.transactionId !== 'string' || typeof body.phoneNumber !== 'string')
      return send(res, 422, 'invalid');
    const now = new Date();
    const { rows } = await pool.query<{ id: string; amount: number }>({
      name: 'pay',
      text: PAY,
      values: [
        environmentId,
        body.transactionId,
        body.phoneNumber,
        now,
        randomUUID(),
        randomUUID(),
        randomUUID(),
      ],
    });
    if (!rows.length) return send(res, 409, 'Payment request is not payable');
    return send(res, 200, {
      data: {
        id: rows[0].id,
        transactionId: body.transactionId,
        amount: rows[0].amount,
        status: 'completed',
      },
    });
  }
  const m = /^\/api\/v1\/payment-request\/by-transaction\/([^/?]+)$/.exec(req.url ?? '');
  if (req.method === 'GET' && m) {
    const { rows } = await pool.query<Record<string, unknown>>({
      name: 'look-up',
      text: LOOK_UP,
      values: [environmentId, decodeURIComponent(m[1])],
    });
    if (!rows.length) return send(res, 404, 'Payment Request not found');
    const r = rows[0];
    return send(res, 200, {
      data: {
        id: r.id,
        transactionId: r.transaction_id,
        amount: r.amount,
        phoneNumber: r.phone_number,
        status: r.status,
        paidAt: r.paid_at,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
      },
    });
  }
  send(res, 404, 'Not found');
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => send(res, 500, 'Internal server error'));
});
void pool
  .query(CEILING_SCHEMA)
  .then(() =>
    server.listen(Number(process.env.PORT), '127.0.0.1', () =>
      process.stdout.write('bare server listening\n'),
    ),
  );
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
