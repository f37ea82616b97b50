import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import request from 'supertest';
import { BillingRun } from '../../src/billing/billing-run';
import { reminderMessages } from '../../src/billing/reminder-messages';
import { ReminderRun } from '../../src/billing/reminder-run';
import { gsm7Length, ucs2Length } from '../../src/billing/sms-text';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp, testDatabaseUrl } from '../helpers/app';
import {
  catalog,
  createCustomer,
  createSubscription,
  DAY,
  invoicesOf,
  seedDueSubscriptions,
} from '../helpers/billing';
import { waitFor } from '../helpers/poll';
import { serviceProcess as startServiceProcess } from '../helpers/service-process';

/*
 * The reminder run: `invoice-upcoming` / `invoice-overdue` once per invoice and reminder day, only
 * the latest of several days passed unsent, scoped to one environment per run (so suites sharing
 * the database never remind each other's invoices), with two instances at once and one killed.
 * Time is the run's `now`, given, so the days are exact.
 */
jest.setTimeout(180_000);

let t: TestApp;
const cleanup: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
afterAll(() => t.close());

const env = (org: CreatedOrganization) => org.sandbox.environmentId;
const reminders = (environmentId: string) =>
  t.query<{ kind: string; data: Record<string, any> }>( // eslint-disable-line @typescript-eslint/no-explicit-any
    `SELECT kind, data FROM events WHERE environment_id = $1 AND kind IN ('invoice-upcoming', 'invoice-overdue')
      ORDER BY created_at, id`,
    [environmentId],
  );
const remind = (org: CreatedOrganization, now: Date, app: TestApp = t) =>
  app.app.get(ReminderRun).run({ environmentId: env(org), now });

/** A monthly subscription started now: one pending invoice due in a month. */
async function oneInvoice(name = 'Test Merchant', customer: object = {}) {
  const org = await newTenant(t, name);
  const c = await catalog(t, org, { amount: 1500 });
  const cust = customer ? await createCustomer(t, org.sandbox.secretKey, customer) : c.customer;
  const sub = await createSubscription(t, org.sandbox.secretKey, {
    customerId: cust.id,
    priceId: c.price.id,
  });
  const [invoice] = await invoicesOf(t, org.sandbox.secretKey, sub.id);
  return { org, invoice, due: new Date(invoice.dueDate!) };
}
const days = (from: Date, n: number) => new Date(from.getTime() + n * DAY);

describe('reminders', () => {
  it('sends invoice-upcoming 3 days before the due date and invoice-overdue 1, 3 and 7 days after, each once', async () => {
    const { org, invoice, due } = await oneInvoice();
    expect(await remind(org, days(due, -4))).toBe(0);
    expect(await remind(org, days(due, -3))).toBe(1);
    expect(await remind(org, days(due, -2))).toBe(0);
    expect(await remind(org, days(due, -3))).toBe(0); // never again, nor an older one
    expect(await remind(org, days(due, 1))).toBe(1);
    expect(await remind(org, days(due, 1.5))).toBe(0);
    expect(await remind(org, days(due, 3))).toBe(1);
    expect(await remind(org, days(due, 7))).toBe(1);
    expect(await remind(org, days(due, 30))).toBe(0);
    const sent = await reminders(env(org));
    expect(sent.map((e) => [e.kind, e.data.daysUntilDue ?? e.data.daysOverdue])).toEqual([
      ['invoice-upcoming', 3],
      ['invoice-overdue', 1],
      ['invoice-overdue', 3],
      ['invoice-overdue', 7],
    ]);
    const { message, daysUntilDue, ...rest } = sent[0].data;
    expect(daysUntilDue).toBe(3);
    expect(rest).toEqual(invoice);
    expect(message).toEqual(
      reminderMessages({
        merchantName: 'Test Merchant',
        amount: '1500.00',
        dueDate: due,
        checkoutUrl: invoice.checkoutUrl,
        reminder: { kind: 'upcoming' },
      }),
    );
    expect(sent[1].data).not.toHaveProperty('daysUntilDue');
  });

  it('delivers invoice-upcoming and invoice-overdue only to the endpoints that list them', async () => {
    const { org, due } = await oneInvoice();
    const endpoint = async (events?: string[]) => {
      const res = await t.http
        .post('/api/v1/webhook-endpoints')
        .set('Authorization', org.sandbox.secretKey)
        .send({ url: 'https://example.com/hook', ...(events ? { events } : {}) });
      expect(res.status).toBe(200);
      return res.body.data.id as string;
    };
    const upcoming = await endpoint(['invoice-upcoming']);
    const overdue = await endpoint(['invoice-overdue', 'invoice-paid']);
    const defaults = await endpoint();
    expect(await remind(org, days(due, -3))).toBe(1);
    expect(await remind(org, days(due, 1))).toBe(1);
    const deliveries = await t.query<{ kind: string; endpoint: string }>(
      `SELECT e.kind, d.endpoint_id AS endpoint FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
        WHERE e.environment_id = $1 AND e.kind IN ('invoice-upcoming', 'invoice-overdue') ORDER BY e.kind`,
      [env(org)],
    );
    expect(deliveries).toEqual([
      { kind: 'invoice-overdue', endpoint: overdue },
      { kind: 'invoice-upcoming', endpoint: upcoming },
    ]);
    expect(deliveries.map((d) => d.endpoint)).not.toContain(defaults);
  });

  it('sends only the latest of several reminder days passed unsent: one per invoice per run', async () => {
    const { org, due } = await oneInvoice();
    expect(await remind(org, days(due, 5))).toBe(1);
    expect(await remind(org, days(due, 6))).toBe(0);
    expect((await reminders(env(org))).map((e) => e.data.daysOverdue)).toEqual([3]);
  });

  it('writes messages with the merchant, the amount in MRU, the due date and the page, within one SMS (fr, en) and two parts (ar)', async () => {
    const { org, invoice, due } = await oneInvoice('Boutique Ahmed Salem');
    await remind(org, days(due, 1));
    const [{ data }] = await reminders(env(org));
    const d = due.toISOString().slice(0, 10).split('-');
    expect(data.message.fr).toBe(
      `Boutique Ahmed Salem: facture 1500 MRU impayée depuis le ${d[2]}/${d[1]}/${d[0]}. Payer: ${invoice.checkoutUrl}`,
    );
    expect(data.message.en).toContain(`invoice of 1500 MRU overdue since ${d[2]}/${d[1]}/${d[0]}`);
    expect(data.message.ar).toContain(`فاتورة 1500 MRU استحقت ${d[2]}/${d[1]} ${invoice.checkoutUrl}`);
    expect(gsm7Length(data.message.fr)).toBeLessThanOrEqual(160);
    expect(gsm7Length(data.message.en)).toBeLessThanOrEqual(160);
    expect(ucs2Length(data.message.ar)).toBeLessThanOrEqual(134);
  });

  it('sends nothing for a paid invoice, and follows the environment’s reminder days, changed after the invoice was looked at', async () => {
    const { org, invoice, due } = await oneInvoice();
    expect(await remind(org, days(due, -20))).toBe(0); // looked at: waits for 3 days before
    const patch = await t.http
      .patch('/api/v1/billing-settings')
      .set('Authorization', org.sandbox.secretKey)
      .send({ reminders: { beforeDueDays: [10], afterDueDays: [] } });
    expect(patch.status).toBe(200);
    expect(await remind(org, days(due, -10))).toBe(1);
    expect((await reminders(env(org)))[0].data.daysUntilDue).toBe(10);

    const paid = await oneInvoice();
    await t.query(`UPDATE invoices SET status = 'paid', paid_at = now() WHERE id = $1`, [paid.invoice.id]);
    expect(await remind(paid.org, days(paid.due, 5))).toBe(0);
    expect(invoice.status).toBe('pending');
  });

  it('reminds only the environment it runs for: another organization’s and Production’s invoices wait for their own run', async () => {
    const a = await oneInvoice();
    const b = await oneInvoice();
    expect(await remind(a.org, days(a.due, 1))).toBe(1);
    expect(await reminders(env(b.org))).toEqual([]);
    expect(await remind(b.org, days(b.due, 1))).toBe(1);
  });

  it('with SMS on, logs the customer’s text in their language in Sandbox, sends nothing, and never logs the full phone', async () => {
    const { org, invoice, due } = await oneInvoice('Test Merchant', { language: 'ar', phone: '36123478' });
    await t.http
      .patch('/api/v1/billing-settings')
      .set('Authorization', org.sandbox.secretKey)
      .send({ sms: { enabled: true } });
    await remind(org, days(due, 1));
    const [{ data }] = await reminders(env(org));
    const sms = await t.query(
      `SELECT phone, language, body, status FROM sms_messages WHERE invoice_id = $1`,
      [invoice.id],
    );
    expect(sms).toEqual([{ phone: '36123478', language: 'ar', body: data.message.ar, status: 'logged' }]);
    const line = t.logs.find((l) => l.includes(invoice.id) && l.includes('sandbox SMS'));
    expect(line).toBeDefined();
    expect(line).toContain('36****78');
    expect(t.logs.some((l) => l.includes('36123478'))).toBe(false);
  });

  it('runs with POST /sandbox/billing/run: an invoice made after its due date gets its latest overdue reminder at once', async () => {
    const org = await newTenant(t);
    const c = await catalog(t, org, { interval: 'weekly', amount: 700 });
    await createSubscription(t, org.sandbox.secretKey, {
      customerId: c.customer.id,
      priceId: c.price.id,
      startedAt: new Date(Date.now() - 10 * DAY - 3_600_000).toISOString(),
    });
    const res = await t.http.post('/api/v1/sandbox/billing/run').set('Authorization', org.sandbox.secretKey);
    expect(res.status).toBe(200);
    expect((await reminders(env(org))).map((e) => [e.kind, e.data.daysOverdue])).toEqual([
      ['invoice-overdue', 3],
    ]);
  });
});

describe('the first reminder time, written with the invoice', () => {
  /** Monthly (or weekly) subscriptions of the environment started at `anchor`, nothing billed yet: due now. */
  async function seedDue(org: CreatedOrganization, interval: 'monthly' | 'weekly', anchor: Date) {
    const c = await catalog(t, org, { interval, amount: 900 });
    await t.query(
      `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                  billing_anchor, billing_interval, next_period, next_billing_date, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, 'active', $5, $5, $6, 0, $5, now(), now())`,
      [org.organizationId, env(org), c.customer.id, c.price.id, anchor, interval],
    );
  }
  /** The environment's invoices, with whether a later statement rewrote them (their request was inserted with them). */
  const invoiceRows = (environmentId: string) =>
    t.query<{ dueDate: Date; reminderAt: Date; reminderStep: number | null; rewritten: boolean }>(
      `SELECT i.due_date AS "dueDate", i.reminder_at AS "reminderAt", i.reminder_step AS "reminderStep",
              i.xmin <> r.xmin AS rewritten
         FROM invoices i JOIN payment_requests r ON r.id = i.payment_request_id
        WHERE i.environment_id = $1 ORDER BY i.due_date`,
      [environmentId],
    );
  const patchSettings = async (org: CreatedOrganization, body: object) => {
    const res = await t.http
      .patch('/api/v1/billing-settings')
      .set('Authorization', org.sandbox.secretKey)
      .send(body);
    expect(res.status).toBe(200);
  };

  it('a billed monthly invoice waits, untouched by the run that billed it, for its first reminder day; one due within the days before is reminded in that run', async () => {
    const org = await newTenant(t);
    await seedDue(org, 'monthly', new Date(Date.now() - 3_600_000));
    await seedDue(org, 'weekly', new Date(Date.now() - 6 * DAY));
    const before = Date.now();
    const res = await t.http.post('/api/v1/sandbox/billing/run').set('Authorization', org.sandbox.secretKey);
    expect(res.status).toBe(200);
    expect(res.body.data.invoicesCreated).toBe(2);
    const [soon, monthly] = await invoiceRows(env(org));
    // Due in a month: its first reminder is 3 days before, and the run did not claim it.
    expect(monthly.dueDate.getTime()).toBeGreaterThan(before + 27 * DAY);
    expect(monthly.reminderAt.getTime()).toBe(monthly.dueDate.getTime() - 3 * DAY);
    expect(monthly.reminderAt.getTime()).toBeGreaterThan(Date.now());
    expect(monthly).toMatchObject({ reminderStep: null, rewritten: false });
    // Due in a day: its reminder 3 days before is reached, and sent in the same run.
    expect(soon.dueDate.getTime()).toBeLessThan(Date.now() + 2 * DAY);
    expect(soon.reminderStep).toBe(-7);
    expect((await reminders(env(org))).map((e) => [e.kind, e.data.daysUntilDue])).toEqual([
      ['invoice-upcoming', 3],
    ]);
    // Looked at first on its reminder day, and sent its reminder then.
    await remind(org, new Date(monthly.reminderAt.getTime() - 1));
    expect((await invoiceRows(env(org)))[1]).toMatchObject({ reminderStep: null, rewritten: false });
    await remind(org, monthly.reminderAt);
    expect((await invoiceRows(env(org)))[1]).toMatchObject({ reminderStep: -7, rewritten: true });
  });

  it('is the earliest of the environment’s reminder days: the most days before, else the fewest after, else at once', async () => {
    /** Days from the due date of the first reminder time of an invoice billed with these reminder days (null: -infinity). */
    const at = async (settings: object) => {
      const org = await newTenant(t);
      await patchSettings(org, { reminders: settings });
      const c = await catalog(t, org);
      const sub = await createSubscription(t, org.sandbox.secretKey, {
        customerId: c.customer.id,
        priceId: c.price.id,
      });
      const [invoice] = await invoicesOf(t, org.sandbox.secretKey, sub.id);
      const [row] = await t.query<{ days: number | null }>(
        `SELECT CASE WHEN reminder_at <> '-infinity' THEN extract(epoch FROM reminder_at - due_date)::float8 / 86400 END
                AS days FROM invoices WHERE id = $1`,
        [invoice.id],
      );
      return row.days;
    };
    expect(await at({ beforeDueDays: [1, 60, 10], afterDueDays: [0] })).toBe(-60);
    expect(await at({ beforeDueDays: [], afterDueDays: [7, 2] })).toBe(2);
    expect(await at({ beforeDueDays: [], afterDueDays: [] })).toBeNull();
  });

  it('follows a change to more days before: the invoice is sent its reminder on the new, earlier day', async () => {
    const { org, due } = await oneInvoice();
    await patchSettings(org, { reminders: { beforeDueDays: [20] } });
    expect(await remind(org, days(due, -21))).toBe(0);
    expect(await remind(org, days(due, -20))).toBe(1);
    expect((await reminders(env(org))).map((e) => e.data.daysUntilDue)).toEqual([20]);
  });
});

describe('reminders across instances', () => {
  /** `n` weekly subscriptions billed 10 days and an hour into their cycle: each one invoice 3 days overdue. */
  async function overdueInvoices(n: number) {
    const org = await newTenant(t);
    const c = await catalog(t, org, { interval: 'weekly', amount: 500 });
    await seedDueSubscriptions(t, org, c, n, new Date(Date.now() - 10 * DAY - 3_600_000));
    await t.app.get(BillingRun).run({ environmentId: env(org) });
    return org;
  }
  const perInvoice = (environmentId: string) =>
    t.query<{ reminders: number; n: number }>(
      `SELECT reminders, count(*)::int AS n FROM (
         SELECT i.id, (SELECT count(*) FROM events e WHERE e.environment_id = $1 AND e.kind = 'invoice-overdue'
                        AND e.data->>'id' = i.id::text)::int AS reminders
           FROM invoices i WHERE i.environment_id = $1 AND i.due_date < now()) x GROUP BY reminders`,
      [environmentId],
    );

  it('sends each reminder once when two instances run at the same moment', async () => {
    const org = await overdueInvoices(1000);
    const a = await startTestApp({ BILLING_BATCH_SIZE: '50' });
    const b = await startTestApp({ BILLING_BATCH_SIZE: '50' });
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const now = new Date();
    const [x, y] = await Promise.all([remind(org, now, a), remind(org, now, b)]);
    expect(x + y).toBe(1000);
    expect(x).toBeGreaterThan(0);
    expect(y).toBeGreaterThan(0);
    expect(await perInvoice(env(org))).toEqual([{ reminders: 1, n: 1000 }]);
  });

  it('sends each reminder once after an instance is killed with SIGKILL in the middle of a run', async () => {
    const n = 3000;
    const org = await overdueInvoices(n);
    const started = await startServiceProcess(testDatabaseUrl(), {
      WEBHOOK_WORKER: 'false',
      RECONCILE_INTERVAL_MS: '0',
      BILLING_SCHEDULER: 'false',
      BILLING_BATCH_SIZE: '20',
    });
    cleanup.push(started.stop);
    const child: ChildProcess = started.child;
    const running = request(`http://127.0.0.1:${started.port}`)
      .post('/api/v1/sandbox/billing/run')
      .set('Authorization', org.sandbox.secretKey)
      .then(
        () => 'answered',
        () => 'killed',
      );
    const count = async () =>
      (
        await t.query(
          `SELECT count(*)::int AS n FROM events WHERE environment_id = $1 AND kind = 'invoice-overdue'`,
          [env(org)],
        )
      )[0].n as number;
    await waitFor(async () => (await count()) >= n / 5, 'the reminder run to be under way', 60_000);
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    expect(await running).toBe('killed');
    const after = await count();
    expect(after).toBeLessThan(n);
    // Whole batches only: every invoice marked sent has its event, and no other.
    const [marked] = await t.query(
      `SELECT count(*)::int AS n FROM invoices WHERE environment_id = $1 AND reminder_step IS NOT NULL`,
      [env(org)],
    );
    expect(marked.n).toBe(after);

    expect(await remind(org, new Date())).toBe(n - after);
    expect(await perInvoice(env(org))).toEqual([{ reminders: 1, n }]);
  });
});
