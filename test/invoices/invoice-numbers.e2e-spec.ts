import { BillingRun } from '../../src/billing/billing-run';
import { Db } from '../../src/database/db';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { SubscriptionsService } from '../../src/subscriptions/subscriptions.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, DAY, invoicesOf, runBilling, seedDueSubscriptions, timeTravel } from '../helpers/billing';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DB_POOL_SIZE: '20' });
});
afterAll(() => t.close());

const post = (key: string, path: string, body: object = {}, app = t) =>
  app.http.post(`/api/v1${path}`).set('Authorization', key).send(body);

/** The environment's invoice numbers, in order of number: their prefixes and sequence numbers. */
async function numbersOf(environmentId: string) {
  const rows = await t.query<{ number: string; seq: number }>(
    `SELECT number, number_seq AS seq FROM invoices WHERE environment_id = $1 ORDER BY number_seq`,
    [environmentId],
  );
  return rows;
}

/** Every number of 1..n once, each shown as `<prefix>-<seq on six digits>`. */
function expectGapless(rows: { number: string; seq: number }[], prefix: string) {
  expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
  expect(rows.filter((r) => r.number !== `${prefix}-${String(r.seq).padStart(6, '0')}`)).toEqual([]);
}

describe('invoice numbers', () => {
  it('start at <prefix>-000001 per environment, the prefix the organization’s first four letters or digits upper-cased', async () => {
    const org = await newTenant(t, 'Épicerie d’Nour & fils');
    const c = await catalog(t, org);
    const s = (
      await post(org.sandbox.secretKey, '/subscriptions', { customerId: c.customer.id, priceId: c.price.id })
    ).body.data;
    const [first] = await invoicesOf(t, org.sandbox.secretKey, s.id);
    expect(first.number).toBe('ÉPIC-000001');
    // The other environment counts on its own.
    const prodProduct = await post(org.production.secretKey, '/products', { name: 'Premium' });
    const prodPrice = await post(org.production.secretKey, '/prices', {
      productId: prodProduct.body.data.id,
      amount: 100,
      interval: 'monthly',
    });
    const prod = await post(org.production.secretKey, '/subscriptions', {
      customerId: c.customer.id,
      priceId: prodPrice.body.data.id,
    });
    const [prodInvoice] = await invoicesOf(t, org.production.secretKey, prod.body.data.id);
    expect(prodInvoice.number).toBe('ÉPIC-000001');
    const again = (
      await post(org.sandbox.secretKey, '/subscriptions', { customerId: c.customer.id, priceId: c.price.id })
    ).body.data;
    expect((await invoicesOf(t, org.sandbox.secretKey, again.id))[0].number).toBe('ÉPIC-000002');
  });

  it('are INV-… when the name has no letter or digit', async () => {
    const org = await newTenant(t, '— · —');
    const c = await catalog(t, org);
    const s = await post(org.sandbox.secretKey, '/subscriptions', {
      customerId: c.customer.id,
      priceId: c.price.id,
    });
    expect((await invoicesOf(t, org.sandbox.secretKey, s.body.data.id))[0].number).toBe('INV-000001');
  });

  it('increase with the periods a catch-up bills, and the invoice-created events carry them', async () => {
    const org = await newTenant(t, 'Nour');
    const c = await catalog(t, org, { interval: 'weekly' });
    const s = (
      await post(org.sandbox.secretKey, '/subscriptions', {
        customerId: c.customer.id,
        priceId: c.price.id,
        startedAt: new Date(Date.now() - 3 * 7 * DAY - 60_000).toISOString(),
      })
    ).body.data;
    const invoices = (await invoicesOf(t, org.sandbox.secretKey, s.id)).sort((a, b) =>
      a.periodStart.localeCompare(b.periodStart),
    );
    expect(invoices.map((i) => i.number)).toEqual([
      'NOUR-000001',
      'NOUR-000002',
      'NOUR-000003',
      'NOUR-000004',
    ]);
    const events = await t.query(
      `SELECT data FROM events WHERE kind = 'invoice-created' AND environment_id = $1 ORDER BY data->>'number'`,
      [org.sandbox.environmentId],
    );
    expect(events.map((e) => e.data)).toEqual([...invoices]);
  });

  it('are taken back when the transaction that took them rolls back: the next invoice takes the same number', async () => {
    const org = await newTenant(t, 'Roll');
    const c = await catalog(t, org);
    const tenant = {
      organizationId: org.organizationId,
      environmentId: org.sandbox.environmentId,
      environment: 'sandbox',
    } as Parameters<SubscriptionsService['create']>[0];
    await expect(
      t.app.get(Db).transaction(async () => {
        await t.app
          .get(SubscriptionsService)
          .create(tenant, { customerId: c.customer.id, priceId: c.price.id });
        throw new Error('rolled back after numbering');
      }),
    ).rejects.toThrow('rolled back after numbering');
    const s = await post(org.sandbox.secretKey, '/subscriptions', {
      customerId: c.customer.id,
      priceId: c.price.id,
    });
    expect((await invoicesOf(t, org.sandbox.secretKey, s.body.data.id))[0].number).toBe('ROLL-000001');
  });

  it('are never taken twice: the database refuses a duplicate number in an environment', async () => {
    const org = await newTenant(t, 'Dupe');
    const c = await catalog(t, org);
    const s = await post(org.sandbox.secretKey, '/subscriptions', {
      customerId: c.customer.id,
      priceId: c.price.id,
    });
    await timeTravel(t, s.body.data.id, 31 * DAY);
    await runBilling(t, org.sandbox.secretKey);
    await expect(
      t.query(`UPDATE invoices SET number_seq = 1 WHERE environment_id = $1 AND number_seq = 2`, [
        org.sandbox.environmentId,
      ]),
    ).rejects.toThrow(/invoices_number_key/);
  });

  it('stay gapless and unique when two instances bill 10,000 invoices while the API creates subscriptions on both', async () => {
    // Production's pool (DB_POOL_SIZE 20; test apps have 10): the billing run's 3 and 2 batch
    // connections and 4 creations waiting on the counter's lock used 7 and 6 here, and a loaded CI
    // machine once answered a creation 503 (a connection not had within 5 s).
    const other = await startTestApp({
      BILLING_BATCH_SIZE: '250',
      BILLING_CONCURRENCY: '2',
      DB_POOL_SIZE: '20',
    });
    try {
      const org: CreatedOrganization = await newTenant(t, 'Gapless');
      const c = await catalog(t, org, { interval: 'weekly', amount: 100 });
      const sk = org.sandbox.secretKey;
      // 2,500 subscriptions, each with 4 started weeks: 10,000 invoices to bill.
      await seedDueSubscriptions(t, org, c, 2500, new Date(Date.now() - 3 * 7 * DAY - 3_600_000));
      const apps = [t, other];
      // 40 creations in 8 chains of 5, 4 at a time on each instance: each waits on the numbering
      // counter's lock while a billing batch holds it, and 4 stay well inside a pool of 10 beside
      // the billing run's connections (20 at once waited past the pool's 5 s on a loaded machine).
      const createOne = async (i: number) => {
        const r = await post(
          sk,
          '/subscriptions',
          { customerId: c.customer.id, priceId: c.price.id },
          apps[i % 2],
        );
        // A failure says why: the database's availability is logged once when it goes.
        if (r.status !== 200)
          throw new Error(
            `${r.status} ${r.text}\n${apps[i % 2].logs.filter((l) => /PostgreSQL|error/i.test(l)).join('\n')}`,
          );
        return r.body.data.id as string;
      };
      const creations = Array.from({ length: 8 }, async (_, chain) => {
        const ids: string[] = [];
        for (let k = 0; k < 5; k++) ids.push(await createOne(chain + 8 * k));
        return ids;
      });
      const runs = apps.map((app) =>
        app.app.get(BillingRun).run({ environmentId: org.sandbox.environmentId }),
      );
      const [chains, ran] = await Promise.all([Promise.all(creations), Promise.all(runs)]);
      const created = chains.flat();
      expect(ran.reduce((n, r) => n + r.invoicesCreated, 0)).toBe(10_000);
      expect(created).toHaveLength(40);

      const rows = await numbersOf(org.sandbox.environmentId);
      expect(rows).toHaveLength(10_040);
      expectGapless(rows, 'GAPL');
      const [{ last }] = await t.query(
        `SELECT last_number AS last FROM invoice_counters WHERE environment_id = $1`,
        [org.sandbox.environmentId],
      );
      expect(last).toBe(10_040);
      // Each subscription's periods in increasing numbers.
      const [{ disordered }] = await t.query(
        `SELECT count(*)::int AS disordered FROM invoices a JOIN invoices b
            ON a.subscription_id = b.subscription_id AND a.period_start < b.period_start AND a.number_seq > b.number_seq
          WHERE a.environment_id = $1`,
        [org.sandbox.environmentId],
      );
      expect(disordered).toBe(0);
    } finally {
      await other.close();
    }
  }, 240_000);
});
