import { raw, sql } from '../../src/database/sql';
import { EnvironmentSetup } from '../../src/organizations/environment-setup';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { SettlementExtensions } from '../../src/payments/settlement';
import { newTenant, startTestApp, TestApp } from '../helpers/app';

/**
 * The two extension points through which modules above a lower one take part in its work
 * (docs/architecture.md): settlement (a paid request also completes a checkout session, pays an
 * invoice) and environment set-up (a new environment gets its bank apps). A registered part runs
 * in the same transaction as the change, so when it fails, nothing of the change remains.
 */
let t: TestApp;
let org: CreatedOrganization;
const probe = `settlement_probe_${process.pid}`;
let masrivi: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.query(`CREATE TABLE ${probe} (payment_request_id uuid PRIMARY KEY)`);
  // A module's settlement part: remembers every request the settling statement pays.
  t.app.get(SettlementExtensions).register({
    name: 'probe',
    ctes: (ctx) => sql`probe_paid AS (INSERT INTO ${raw(probe)} SELECT id FROM ${raw(ctx.paid)})`,
  });
  org = await newTenant(t);
  const methods = await t.http.get('/api/v1/payment-methods').set('Authorization', org.sandbox.secretKey);
  masrivi = (methods.body.data as { id: string; type: string }[]).find((m) => m.type === 'masrivi')!.id;
});
afterAll(async () => {
  await t.query(`DROP TABLE ${probe}`);
  await t.close();
});

async function request(transactionId: string): Promise<string> {
  const res = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId, amount: 100 });
  return res.body.data.id as string;
}

const pay = (transactionId: string) =>
  t.http
    .post('/api/v1/payment')
    .set('Authorization', org.sandbox.publishableKey)
    .send({ transactionId, phoneNumber: '22222222', configurationId: masrivi });

describe('settlement extensions', () => {
  it('complete with the payment, and a failing one leaves the payment pending and the request unpaid', async () => {
    const paidTx = `ext-ok-${Date.now()}`;
    const paidId = await request(paidTx);
    expect((await pay(paidTx)).body.data.status).toBe('completed');
    expect(await t.query(`SELECT 1 FROM ${probe} WHERE payment_request_id = $1`, [paidId])).toHaveLength(1);

    const failTx = `ext-fail-${Date.now()}`;
    const failId = await request(failTx);
    // The extension's insert will collide: the whole settling statement must fail with it.
    await t.query(`INSERT INTO ${probe} VALUES ($1)`, [failId]);
    const res = await pay(failTx);
    expect([res.status, res.text]).toEqual([500, 'Internal server error']);
    const [pr] = await t.query('SELECT status FROM payment_requests WHERE id = $1', [failId]);
    expect(pr.status).toBe('pending');
    const payments = await t.query('SELECT status FROM payments WHERE payment_request_id = $1', [failId]);
    expect(payments.map((p) => p.status)).toEqual(['pending']);
    const events = await t.query(
      `SELECT kind FROM events WHERE kind IN ('payment-updated', 'payment-request-updated') AND data->>'transactionId' = $1`,
      [failTx],
    );
    expect(events).toEqual([]);
  });

  it('cannot be registered twice under one name', () => {
    expect(() => t.app.get(SettlementExtensions).register({ name: 'checkout', ctes: () => sql`` })).toThrow(
      'settlement extension checkout registered twice',
    );
  });
});

describe('environment set-up steps', () => {
  it('give every new environment the default bank apps and the transfer method', async () => {
    for (const env of [org.sandbox, org.production]) {
      const rows = await t.query(
        'SELECT type FROM payment_methods WHERE environment_id = $1 ORDER BY position',
        [env.environmentId],
      );
      expect(rows.map((r) => r.type)).toEqual(['bankily', 'masrivi', 'sedad', 'gimtel']);
    }
  });

  it('run in the transaction that creates the organization: a failing step leaves no organization', async () => {
    const setup = t.app.get(EnvironmentSetup);
    const name = `Failing set-up ${Date.now()}`;
    setup.register(`fails-${name}`, async () => {
      await t.db.exec(sql`SELECT 1`); // joins the creating transaction
      throw new Error('set-up step failed');
    });
    await expect(newTenant(t, name)).rejects.toThrow('set-up step failed');
    expect(await t.query('SELECT 1 FROM organizations WHERE name = $1', [name])).toEqual([]);
  });
});
