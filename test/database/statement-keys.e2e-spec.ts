import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { privateDatabase } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { SubscriptionTenant as Tenant, subscriptionTenant } from '../helpers/tenant-rows';

/** The numbering columns an invoice written by hand needs (a random number: these tests do not count them). */
const NUMBERED = 'number_seq, number, subtotal, lines';
const NUMBERS = `floor(random() * 2e9)::int, 'T-' || floor(random() * 2e9)::int, 1500, '[]'::jsonb`;

/*
 * Events and invoices check their owners once per statement instead of a foreign key per row
 * (docs/billing.md "Performance", migration StatementKeys): the same rows are refused, in a
 * statement of many rows as of one, the owners cannot be changed afterwards, deleting an owner
 * deletes them, and an environment (a subscription) deleted while an event (an invoice) is being
 * written either waits for it and deletes it, or makes it fail.
 */
jest.setTimeout(60_000);

let url: string;
let drop: () => Promise<void>;
let db: Client;
beforeAll(async () => {
  ({ url, drop } = await privateDatabase());
  db = new Client({ connectionString: url });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await drop();
});

const tenant = (c: Client = db): Promise<Tenant> => subscriptionTenant(c);

/** One statement inserting an event per pair of (organization, environment). */
const events = (pairs: [string, string][], c: Client = db) =>
  c.query(
    `INSERT INTO events (id, organization_id, environment_id, kind, data)
     SELECT gen_random_uuid(), o, e, 'invoice-created', '{}' FROM unnest($1::uuid[], $2::uuid[]) AS x(o, e)`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );

let month = 0;
/** One statement inserting an invoice per row, each of its own month. */
const invoices = (rows: Tenant[]) => invoicesOn(db, rows);
const invoicesOn = (c: Client, rows: Tenant[]) =>
  c.query(
    `INSERT INTO invoices (id, organization_id, environment_id, customer_id, subscription_id, amount,
                           period_start, period_end, due_date, ${NUMBERED})
     SELECT gen_random_uuid(), o, e, c, s, 1500, p, p + interval '1 month', p + interval '1 month', ${NUMBERS}
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::timestamptz[]) AS x(o, e, c, s, p)`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.environmentId),
      rows.map((r) => r.customerId),
      rows.map((r) => r.subscriptionId),
      rows.map(() => new Date(Date.UTC(2026, month++, 1))),
    ],
  );

/**
 * One statement inserting an invoice of `t` for a new month and its payment request, in
 * `request.environmentId` (the invoice's by default), naming the invoice (as billing makes them)
 * or nothing.
 */
const invoiceWithRequest = (t: Tenant, request: { environmentId?: string; names: 'invoice' | 'nothing' }) =>
  db.query(
    `WITH ids AS (SELECT gen_random_uuid() AS invoice, gen_random_uuid() AS request),
          request AS (INSERT INTO payment_requests (id, environment_id, transaction_id, amount, invoice_id)
                      SELECT request, $5, invoice::text, 1500, CASE WHEN $7 THEN invoice END FROM ids)
     INSERT INTO invoices (id, organization_id, environment_id, customer_id, subscription_id, amount,
                           period_start, period_end, due_date, payment_request_id, ${NUMBERED})
     SELECT invoice, $1, $2, $3, $4, 1500, $6, $6::timestamptz + interval '1 month', $6::timestamptz + interval '1 month',
            request, ${NUMBERS}
       FROM ids`,
    [
      t.id,
      t.environmentId,
      t.customerId,
      t.subscriptionId,
      request.environmentId ?? t.environmentId,
      new Date(Date.UTC(2026, month++, 1)),
      request.names === 'invoice',
    ],
  );

const count = async (table: 'events' | 'invoices', organizationId: string) =>
  (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [organizationId]))
    .rows[0].n as number;

/**
 * Until a statement of this test's database starting with `statement` waits for a lock. Found by its
 * text, not its connection's pid: behind PgBouncer that pid is the pooler's, not the server's.
 */
const waitingForLock = (statement: string, what: string) =>
  waitFor(
    async () =>
      (
        await db.query(
          `SELECT 1 FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND starts_with(query, $1)`,
          [statement],
        )
      ).rowCount === 1,
    what,
  );

it('refuses a statement of events when one is not its environment’s organization’s, or has no environment', async () => {
  const a = await tenant();
  const b = await tenant();
  await events([
    [a.id, a.environmentId],
    [b.id, b.environmentId],
    [a.id, a.environmentId],
  ]);
  await expect(
    events([
      [a.id, a.environmentId],
      [b.id, a.environmentId],
    ]),
  ).rejects.toMatchObject({ code: '23503' });
  await expect(events([[a.id, randomUUID()]])).rejects.toMatchObject({ code: '23503' });
  expect([await count('events', a.id), await count('events', b.id)]).toEqual([2, 1]);
});

it('refuses a statement of invoices when one’s customer, environment or organization is not its subscription’s', async () => {
  const a = await tenant();
  const b = await tenant();
  await invoices([a, b]);
  await expect(invoices([a, { ...a, customerId: b.customerId }])).rejects.toMatchObject({ code: '23503' });
  await expect(invoices([{ ...a, environmentId: b.environmentId }])).rejects.toMatchObject({ code: '23503' });
  await expect(invoices([{ ...a, id: b.id }])).rejects.toMatchObject({ code: '23503' });
  await expect(invoices([{ ...a, subscriptionId: randomUUID() }])).rejects.toMatchObject({ code: '23503' });
  expect([await count('invoices', a.id), await count('invoices', b.id)]).toEqual([1, 1]);
});

it('refuses an invoice whose payment request does not name it, or lives in another environment', async () => {
  const a = await tenant();
  const b = await tenant();
  await invoiceWithRequest(a, { names: 'invoice' });
  await expect(invoiceWithRequest(a, { names: 'nothing' })).rejects.toMatchObject({ code: '23503' });
  await expect(
    invoiceWithRequest(a, { names: 'invoice', environmentId: b.environmentId }),
  ).rejects.toMatchObject({
    code: '23503',
  });
  await expect(
    db.query(
      `INSERT INTO invoices (id, organization_id, environment_id, customer_id, subscription_id, amount, period_start,
                             period_end, payment_request_id, ${NUMBERED})
       SELECT gen_random_uuid(), $1, $2, $3, $4, 1500, '2030-01-01', '2030-02-01', gen_random_uuid(), ${NUMBERS}`,
      [a.id, a.environmentId, a.customerId, a.subscriptionId],
    ),
  ).rejects.toMatchObject({ code: '23503' });
  expect(await count('invoices', a.id)).toBe(1);
});

it('refuses to change the owners of an event, an invoice, a subscription or an environment', async () => {
  const a = await tenant();
  const b = await tenant();
  await events([[a.id, a.environmentId]]);
  await invoices([a]);
  await expect(
    db.query(`UPDATE events SET organization_id = $1, environment_id = $2 WHERE organization_id = $3`, [
      b.id,
      b.environmentId,
      a.id,
    ]),
  ).rejects.toMatchObject({ code: '23503' });
  await expect(
    db.query(`UPDATE invoices SET customer_id = $1 WHERE organization_id = $2`, [b.customerId, a.id]),
  ).rejects.toMatchObject({ code: '23503' });
  await expect(
    db.query(`UPDATE invoices SET payment_request_id = gen_random_uuid() WHERE organization_id = $1`, [a.id]),
  ).rejects.toMatchObject({ code: '23503' });
  await expect(
    db.query(`UPDATE subscriptions SET customer_id = $1 WHERE id = $2`, [b.customerId, a.subscriptionId]),
  ).rejects.toMatchObject({ code: '23503' });
  await expect(
    db.query(`UPDATE environments SET organization_id = $1 WHERE id = $2`, [b.id, a.environmentId]),
  ).rejects.toMatchObject({ code: '23503' });
  // Setting a column to the value it has changes nothing, and other columns change freely.
  await db.query(
    `UPDATE events SET organization_id = organization_id, kind = 'invoice-paid' WHERE organization_id = $1`,
    [a.id],
  );
  await db.query(`UPDATE invoices SET status = 'void', voided_at = now() WHERE organization_id = $1`, [a.id]);
});

it('deletes the events and invoices of a deleted environment, subscription, customer or organization, and nothing else', async () => {
  const [a, b, c, d] = [await tenant(), await tenant(), await tenant(), await tenant()];
  for (const t of [a, b, c, d]) {
    await events([[t.id, t.environmentId]]);
    await invoices([t]);
  }
  // With their payment requests too: an environment's go with it, invoices and all.
  await invoiceWithRequest(a, { names: 'invoice' });
  await invoiceWithRequest(d, { names: 'invoice' });
  const requests = async (t: Tenant) =>
    (
      await db.query(`SELECT count(*)::int AS n FROM payment_requests WHERE environment_id = $1`, [
        t.environmentId,
      ])
    ).rows[0].n as number;
  expect(await requests(a)).toBe(1);
  await db.query(`DELETE FROM environments WHERE id = $1`, [a.environmentId]);
  expect([await count('events', a.id), await count('invoices', a.id), await requests(a)]).toEqual([0, 0, 0]);
  await db.query(`DELETE FROM subscriptions WHERE id = $1`, [c.subscriptionId]);
  expect([await count('events', c.id), await count('invoices', c.id)]).toEqual([1, 0]);
  await db.query(`DELETE FROM customers WHERE id = $1`, [b.customerId]);
  expect([await count('events', b.id), await count('invoices', b.id)]).toEqual([1, 0]);
  await db.query(`DELETE FROM organizations WHERE id = $1`, [b.id]);
  expect(await count('events', b.id)).toBe(0);
  await db.query(`DELETE FROM organizations WHERE id = $1`, [d.id]);
  expect([await count('events', d.id), await count('invoices', d.id), await requests(d)]).toEqual([0, 0, 0]);
  expect([await count('events', c.id), await count('invoices', c.id)]).toEqual([1, 0]);
});

/**
 * An owner deleted while a row of `table` is being written for it, on two connections. The row
 * first: the delete waits for the writer's commit, then deletes the row too. The delete first: the
 * row waits for the delete's commit, then is refused. Neither leaves a row behind.
 */
async function raceWithDelete(race: {
  table: 'events' | 'invoices';
  /** The owner's table, and the id of the tenant's row in it. */
  owner: 'subscriptions' | 'environments';
  ownerId: (t: Tenant) => string;
  write: (c: Client, t: Tenant) => Promise<unknown>;
}): Promise<void> {
  const writer = new Client({ connectionString: url });
  const deleter = new Client({ connectionString: url });
  await writer.connect();
  await deleter.connect();
  const deleteOwner = (t: Tenant) =>
    deleter.query(`DELETE FROM ${race.owner} WHERE id = $1`, [race.ownerId(t)]);
  try {
    const a = await tenant();
    await writer.query('BEGIN');
    await race.write(writer, a);
    const deleting = deleteOwner(a);
    await waitingForLock(`DELETE FROM ${race.owner}`, `the delete to wait for the ${race.table} transaction`);
    await writer.query('COMMIT');
    await deleting;
    expect(await count(race.table, a.id)).toBe(0);

    const b = await tenant();
    await deleter.query('BEGIN');
    await deleteOwner(b);
    // Expected at once: the refusal may arrive before the COMMIT's answer.
    const refused = expect(race.write(writer, b)).rejects.toMatchObject({ code: '23503' });
    await waitingForLock(
      `INSERT INTO ${race.table}`,
      `the ${race.table} insert to wait for the delete’s transaction`,
    );
    await deleter.query('COMMIT');
    await refused;
    expect(await count(race.table, b.id)).toBe(0);
  } finally {
    await writer.end();
    await deleter.end();
  }
}

it('a subscription deleted while its invoice is being written waits for it and deletes it, or makes it fail', () =>
  raceWithDelete({
    table: 'invoices',
    owner: 'subscriptions',
    ownerId: (t) => t.subscriptionId,
    write: (c, t) => invoicesOn(c, [t]),
  }));

it('an environment deleted while its event is being written waits for it and deletes it, or makes it fail', () =>
  raceWithDelete({
    table: 'events',
    owner: 'environments',
    ownerId: (t) => t.environmentId,
    write: (c, t) => events([[t.id, t.environmentId]], c),
  }));
