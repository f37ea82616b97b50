import { randomUUID } from 'node:crypto';
import { BillingWriteKeys1795616400000 } from '../../src/database/migrations/1795616400000-BillingWriteKeys';
import { migrationDatabase } from '../helpers/migrations';
import { subscriptionTenant } from '../helpers/tenant-rows';

/*
 * The billing run's hot tables check fewer foreign keys per row (docs/billing.md "National
 * scale"): an event's or an invoice's organization must be its environment's. Rows written before
 * that disagreed are given their environment's; deleting an organization still deletes its events
 * and invoices.
 */
jest.setTimeout(60_000);

const m = migrationDatabase(BillingWriteKeys1795616400000);

it('keeps events and invoices with their environment’s organization, and deletes them with it', async () => {
  const db = m.db;
  const tenant = (name: string) => subscriptionTenant(db, name);
  let migrated = false;
  const invoice = (
    o: { id: string; environmentId: string; customerId: string },
    subscriptionId: string,
    month: number,
  ) =>
    db.query(
      `INSERT INTO invoices (id, organization_id, environment_id, customer_id, subscription_id, amount,
                               period_start, period_end, due_date${migrated ? ', number_seq, number, subtotal, lines' : ''})
         SELECT $1, $2, $3, $4, $5, 1500, $6::timestamptz, $6::timestamptz + interval '1 month',
                $6::timestamptz + interval '1 month'${migrated ? `, 1000 + ${month}, 'T-' || ${month}, 1500, '[]'::jsonb` : ''}
         RETURNING id`,
      [randomUUID(), o.id, o.environmentId, o.customerId, subscriptionId, `2026-0${month}-01T00:00:00Z`],
    );
  const event = (organizationId: string, environmentId: string) =>
    db.query(
      `INSERT INTO events (id, organization_id, environment_id, kind, data)
         VALUES ($1, $2, $3, 'invoice-created', '{}') RETURNING id`,
      [randomUUID(), organizationId, environmentId],
    );
  const a = await tenant('Shop A');
  const b = await tenant('Shop B');
  const {
    rows: [{ id: good }],
  } = await invoice(a, a.subscriptionId, 1);
  // Before, only each parent's existence was checked: B's organization on A's environment.
  const {
    rows: [{ id: astray }],
  } = await invoice({ ...a, id: b.id }, a.subscriptionId, 2);
  const {
    rows: [{ id: ownEvent }],
  } = await event(a.id, a.environmentId);
  const {
    rows: [{ id: strayEvent }],
  } = await event(b.id, a.environmentId);

  await m.migrateRest();
  // Invoices are numbered from then on (migration InvoiceNumbers); the two above were given numbers.
  migrated = true;
  expect((await db.query(`SELECT number FROM invoices ORDER BY number`)).rows.map((r) => r.number)).toEqual([
    'SHOP-000001',
    'SHOP-000002',
  ]);

  const owners = (
    await db.query(
      `SELECT id, organization_id, environment_id, customer_id FROM invoices ORDER BY period_start`,
    )
  ).rows;
  const ofA = { organization_id: a.id, environment_id: a.environmentId, customer_id: a.customerId };
  expect(owners).toEqual([
    { id: good, ...ofA },
    { id: astray, ...ofA },
  ]);
  const events = (await db.query(`SELECT id, organization_id FROM events ORDER BY id`)).rows;
  expect(events).toEqual(
    [
      { id: ownEvent, organization_id: a.id },
      { id: strayEvent, organization_id: a.id },
    ].sort((x, y) => (x.id < y.id ? -1 : 1)),
  );

  // The keys now refuse what disagrees, and still what does not exist.
  await expect(event(b.id, a.environmentId)).rejects.toMatchObject({ code: '23503' });
  await expect(event(a.id, randomUUID())).rejects.toMatchObject({ code: '23503' });
  await expect(invoice({ ...a, id: b.id }, a.subscriptionId, 3)).rejects.toMatchObject({ code: '23503' });
  await expect(invoice({ ...a, environmentId: randomUUID() }, a.subscriptionId, 3)).rejects.toMatchObject({
    code: '23503',
  });
  await expect(invoice(a, randomUUID(), 3)).rejects.toMatchObject({ code: '23503' });
  await invoice(b, b.subscriptionId, 1);
  await event(b.id, b.environmentId);

  // Deleting an organization deletes its events and invoices (through its environments), and
  // nothing of the other's.
  await db.query(`DELETE FROM organizations WHERE id = $1`, [a.id]);
  const left = (
    await db.query(
      `SELECT (SELECT array_agg(DISTINCT organization_id) FROM invoices) AS invoices,
                (SELECT array_agg(DISTINCT organization_id) FROM events) AS events`,
    )
  ).rows[0];
  expect(left).toEqual({ invoices: [b.id], events: [b.id] });
});
