import { createHash, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';
import { billingSettlementCtes } from '../src/billing/billing.fragments';
import { completeOpenSessionCtes } from '../src/checkout/checkout.fragments';
import { ledgerSettlementCte } from '../src/ledger/ledger.fragments';
import {
  LookUpRow,
  lookUpStatement,
  OpenFlags,
  openStatement,
  SettledRow,
  settleStatement,
} from '../src/payments/pay.statements';
import { fromJsonRow } from '../src/payment-requests/payment-request';
import { paymentFromRow, toPaymentJson } from '../src/payments/payment';
import type { Sql } from '../src/database/sql';
import type { SettlementContext } from '../src/payments/settlement-types';

/**
 * The ceiling: the same work as Khoums's hot routes (key look-up, insert of the request and its
 * outbox event in one statement, look-up by transactionId, and pay with the very statements
 * Khoums runs, the bank answering at once) on bare node:http + pg, with no framework, validation
 * library or ORM. Started by bench/run.ts.
 */

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 20),
});

const AUTH = `SELECT k.id, k.kind, k.environment_id, k.organization_id, e.kind AS environment
  FROM api_keys k JOIN environments e ON e.id = k.environment_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;

/** The service's settlement extensions, as its modules register them. */
const EXTENSIONS = [
  { name: 'checkout', ctes: completeOpenSessionCtes },
  { name: 'billing', ctes: (ctx: SettlementContext) => billingSettlementCtes(ctx, 'http://localhost') },
  {
    name: 'ledger',
    ctes: (ctx: SettlementContext) => ledgerSettlementCte(ctx, { defaultFeeBps: 0, payoutDelayDays: 1 }),
  },
];

/** As Khoums's Db runs it (prepared when the statement is). */
async function rows<T extends object>(statement: Sql): Promise<T[]> {
  return (await pool.query(statement.query())).rows as T[];
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

async function handle(req: IncomingMessage, res: ServerResponse) {
  const key = req.headers.authorization;
  if (!key) return send(res, 401, 'API key is required');
  const { rows: keys } = await pool.query(AUTH, [createHash('sha256').update(key).digest()]);
  const k = keys[0] as { kind: string; environment_id: string; organization_id: string } | undefined;
  if (!k) return send(res, 401, 'Invalid API key');

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
      paidAt: null,
      invoiceId: null,
      environmentId: k.environment_id,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const { rows } = await pool.query(
      `WITH created AS (
         INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (environment_id, transaction_id) DO NOTHING RETURNING id
       ), event AS (
         INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
         SELECT $7, $8, $2, 'payment-request-created', $9, $6 FROM created
       ) SELECT id FROM created`,
      [
        pr.id,
        pr.environmentId,
        pr.transactionId,
        pr.amount,
        null,
        now,
        randomUUID(),
        k.organization_id,
        JSON.stringify(pr),
      ],
    );
    if (!rows.length) return send(res, 409, 'conflict');
    return send(res, 200, { data: pr });
  }
  if (req.method === 'POST' && req.url === '/api/v1/payment') return pay(req, res, k);
  const m = /^\/api\/v1\/payment-request\/by-transaction\/([^/?]+)$/.exec(req.url ?? '');
  if (req.method === 'GET' && m) {
    const { rows } = await pool.query(
      'SELECT * FROM payment_requests WHERE environment_id = $1 AND transaction_id = $2',
      [k.environment_id, decodeURIComponent(m[1])],
    );
    if (!rows.length) return send(res, 404, 'Payment Request not found');
    const r = rows[0] as Record<string, unknown>;
    return send(res, 200, { data: { id: r.id, amount: r.amount, phoneNumber: r.phone_number } });
  }
  send(res, 404, 'Not found');
}

async function pay(
  req: IncomingMessage,
  res: ServerResponse,
  k: { environment_id: string; organization_id: string },
) {
  const body = await readJson(req);
  const [row] = await rows<LookUpRow>(
    lookUpStatement(k.environment_id, String(body.configurationId), String(body.transactionId)),
  );
  if (!row.method || !row.request) return send(res, 404, 'Not found');
  if (row.request.status === 'paid') return send(res, 409, 'Payment request is already paid');
  const request = fromJsonRow(row.request);
  const opened = openStatement({
    request,
    methodId: row.method.id,
    phoneNumber: String(body.phoneNumber),
    organizationId: k.organization_id,
  });
  const [flags] = await rows<OpenFlags>(opened.statement);
  if (!flags.payable || !flags.opened) return send(res, 409, 'conflict');
  // The bank answers "completed" at once, as the sandbox does for 22222222.
  const settled = settleStatement(
    opened.payment,
    request,
    k.organization_id,
    { status: 'completed', bankReference: 'sbx' },
    EXTENSIONS,
  );
  const [paid] = await rows<SettledRow>(settled);
  return send(res, 200, { data: toPaymentJson(paymentFromRow(paid), request.transactionId) });
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => send(res, 500, 'Internal server error'));
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('bare server listening\n'));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
