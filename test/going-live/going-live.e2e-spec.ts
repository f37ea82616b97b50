import request from 'supertest';
import { CLI_ACTOR } from '../../src/admin/audit-log.repository';
import { OperatorActionsService } from '../../src/admin/operator-actions.service';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  createCustomer,
  createPrice,
  createProduct,
  createSubscription,
  invoicesOf,
} from '../helpers/billing';
import { createSession, txId } from '../helpers/checkout';
import { expectText } from '../helpers/http';

/*
 * Going live (docs/going-live.md): the organization record, the gate on Production money until
 * the organization is verified, operators' decisions with their event and audit entry.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ops = () => t.app.get(OperatorActionsService);
const api = (key: string) => ({
  get: (path: string) => t.http.get(`/api/v1${path}`).set('Authorization', key),
  post: (path: string, body: object = {}) =>
    t.http.post(`/api/v1${path}`).set('Authorization', key).send(body),
});
const methodsOf = async (key: string) =>
  Object.fromEntries(
    ((await api(key).get('/payment-methods')).body.data as { type: string; id: string }[]).map((m) => [
      m.type,
      m.id,
    ]),
  );
const NOT_VERIFIED = Messages.organizationNotVerified;

describe('GET /organization', () => {
  it('shows the key organization with its verification, payout account and platform flag', async () => {
    const org = await newTenant(t, 'Boutique Kiffa');
    for (const key of [org.sandbox.secretKey, org.production.secretKey]) {
      const res = await api(key).get('/organization');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          id: org.organizationId,
          name: 'Boutique Kiffa',
          verification: {
            status: 'verified',
            submittedAt: null,
            decidedAt: expect.any(String),
            reason: null,
          },
          payoutAccount: null,
          platform: false,
          phoneNumber: '',
          website: null,
        },
      });
    }
  });

  it('answers a publishable key 403 Unauthorized access', async () => {
    const org = await newTenant(t);
    expectText(
      await api(org.production.publishableKey).get('/organization'),
      403,
      Messages.unauthorizedAccess,
    );
  });

  it('shows the payout account by its last four digits only', async () => {
    const org = await newTenant(t);
    await ops().setApprovedPayoutAccount(CLI_ACTOR, org.organizationId, {
      bank: 'bmci',
      holderName: 'Boutique Kiffa SARL',
      iban: 'MR13 0002 0001 0100 0012 3456 753',
    });
    const res = await api(org.sandbox.secretKey).get('/organization');
    expect(res.body.data.payoutAccount).toEqual({
      bank: 'BMCI',
      holderName: 'Boutique Kiffa SARL',
      ibanLast4: '6753',
      status: 'approved',
    });
    expect(res.text).not.toContain('MR1300020001010000123456753');
  });
});

describe('the gate: Production money waits for verification', () => {
  let org: CreatedOrganization;
  let live: ReturnType<typeof api>;
  let livePk: ReturnType<typeof api>;
  beforeAll(async () => {
    org = await newTenant(t, 'Unverified Shop', { verification: 'unverified' });
    live = api(org.production.secretKey);
    livePk = api(org.production.publishableKey);
  });

  it('refuses to create a payment request with a Production key: 403', async () => {
    expectText(
      await live.post('/payment-request', { transactionId: txId(), amount: 100 }),
      403,
      NOT_VERIFIED,
    );
    expect((await live.get('/payment-request')).body.data).toEqual([]);
  });

  it('refuses to create a checkout session with a Production key: 403', async () => {
    expectText(
      await live.post('/checkout-session', { transactionId: txId(), amount: 100 }),
      403,
      NOT_VERIFIED,
    );
  });

  it('refuses pay with a Production secret key and a Production publishable key: 403', async () => {
    const methods = await methodsOf(org.production.secretKey);
    const body = {
      transactionId: txId(),
      phoneNumber: '22123456',
      passCode: '',
      configurationId: methods.masrivi,
    };
    expectText(await live.post('/payment', body), 403, NOT_VERIFIED);
    expectText(await livePk.post('/payment', body), 403, NOT_VERIFIED);
  });

  it('refuses both subscription creates with a Production key: 403', async () => {
    const product = await createProduct(t, org.production.secretKey);
    const price = await createPrice(t, org.production.secretKey, product.id);
    const customer = await createCustomer(t, org.production.secretKey);
    expectText(
      await live.post('/subscriptions', { customerId: customer.id, priceId: price.id }),
      403,
      NOT_VERIFIED,
    );
    expectText(
      await live.post('/subscriptions/by-external-user', { externalUserId: 'u-1', priceId: price.id }),
      403,
      NOT_VERIFIED,
    );
    expect((await live.get('/subscriptions')).body.data).toEqual([]);
  });

  it('lets a Production key read, configure and manage what asks no customer for money', async () => {
    expect((await live.get('/payment-request')).status).toBe(200);
    expect((await live.get('/payment-methods')).status).toBe(200);
    expect((await live.get('/organization')).status).toBe(200);
    expect((await live.post('/products', { name: 'Carnet' })).status).toBe(200);
    expect((await live.post('/customers', { externalUserId: txId('c') })).status).toBe(200);
  });

  it('never gates Sandbox: the same organization takes test money', async () => {
    const test = api(org.sandbox.secretKey);
    const transactionId = txId();
    expect((await test.post('/payment-request', { transactionId, amount: 100 })).status).toBe(200);
    const methods = await methodsOf(org.sandbox.secretKey);
    const paid = await api(org.sandbox.publishableKey).post('/payment', {
      transactionId,
      phoneNumber: '22123456',
      configurationId: methods.masrivi,
    });
    expect({ status: paid.status, payment: paid.body.data?.status }).toEqual({
      status: 200,
      payment: 'completed',
    });
    expect((await test.post('/checkout-session', { transactionId: txId(), amount: 100 })).status).toBe(200);
  });

  it('opens Production money as soon as an operator verifies the organization', async () => {
    const other = await newTenant(t, 'Soon Verified', { verification: 'unverified' });
    const key = api(other.production.secretKey);
    expectText(await key.post('/payment-request', { transactionId: txId(), amount: 100 }), 403, NOT_VERIFIED);
    await ops().verify(CLI_ACTOR, other.organizationId);
    expect((await key.post('/payment-request', { transactionId: txId(), amount: 100 })).status).toBe(200);
  });
});

describe("the hosted pages' pay forms of an organization that is no longer verified", () => {
  const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

  it('the checkout page refuses to pay in Production (403, the form shows why), and takes nothing', async () => {
    const org = await newTenant(t);
    const { data: session } = await createSession(t, org.production.secretKey, {
      transactionId: txId(),
      amount: 250,
    });
    await ops().reject(CLI_ACTOR, org.organizationId, 'RCCM extract unreadable');
    const methods = await methodsOf(org.production.secretKey);
    const browser = request.agent(t.app.getHttpServer());
    const page = await browser.get(`/checkout/${session.id}?lang=en`);
    const res = await browser
      .post(`/checkout/${session.id}/pay?lang=en`)
      .type('form')
      .send({ _csrf: csrfOf(page.text), paymentMethodId: methods.masrivi, phoneNumber: '22123456' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('This merchant cannot take real payments yet');
    expect(
      await t.query('SELECT id FROM payments WHERE payment_request_id = $1', [session.paymentRequestId]),
    ).toEqual([]);
  });

  it('the invoice page refuses to pay a Production invoice (403), and takes nothing', async () => {
    const org = await newTenant(t);
    const sk = org.production.secretKey;
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    const customer = await createCustomer(t, sk);
    const subscription = await createSubscription(t, sk, { customerId: customer.id, priceId: price.id });
    const [invoice] = await invoicesOf(t, sk, subscription.id);
    await t.query(`UPDATE organizations SET verification_status = 'unverified' WHERE id = $1`, [
      org.organizationId,
    ]);
    const methods = await methodsOf(sk);
    const browser = request.agent(t.app.getHttpServer());
    const path = new URL(invoice.checkoutUrl).pathname;
    const page = await browser.get(`${path}?lang=en`);
    const res = await browser
      .post(`${path}/pay?lang=en`)
      .type('form')
      .send({ _csrf: csrfOf(page.text), paymentMethodId: methods.masrivi, phoneNumber: '22123456' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('This merchant cannot take real payments yet');
    expect(
      await t.query('SELECT id FROM payments WHERE payment_request_id = $1', [invoice.paymentRequestId]),
    ).toEqual([]);
  });
});

describe("operators' decisions", () => {
  it('reject keeps the reason; the organization may apply again; verify clears it', async () => {
    const org = await newTenant(t, 'Decided', { verification: 'unverified' });
    await ops().reject(CLI_ACTOR, org.organizationId, 'NIF does not match the RCCM');
    let v = (await api(org.sandbox.secretKey).get('/organization')).body.data.verification;
    expect(v).toEqual({
      status: 'rejected',
      submittedAt: null,
      decidedAt: expect.any(String),
      reason: 'NIF does not match the RCCM',
    });
    await ops().verify(CLI_ACTOR, org.organizationId);
    v = (await api(org.sandbox.secretKey).get('/organization')).body.data.verification;
    expect(v).toMatchObject({ status: 'verified', reason: null });
  });

  it('refuses a rejection without a reason: 400', async () => {
    const org = await newTenant(t);
    await expect(ops().reject(CLI_ACTOR, org.organizationId, '  ')).rejects.toMatchObject({
      status: 400,
      message: Messages.rejectionReasonRequired,
    });
  });

  it('sends account-updated, only to endpoints that list it, in both environments', async () => {
    const org = await newTenant(t, 'Evented', { verification: 'unverified' });
    const endpoint = (key: string, events?: string[]) =>
      api(key).post('/webhook-endpoints', { url: 'https://example.com/hook', ...(events ? { events } : {}) });
    const listing = (await endpoint(org.sandbox.secretKey, ['account-updated'])).body.data.id as string;
    const defaults = (await endpoint(org.sandbox.secretKey)).body.data.id as string;
    await ops().verify(CLI_ACTOR, org.organizationId);
    const deliveries = await t.query<{ endpoint_id: string; data: { verification: { status: string } } }>(
      `SELECT d.endpoint_id, e.data FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
        WHERE e.organization_id = $1 AND e.kind = 'account-updated'`,
      [org.organizationId],
    );
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([listing]);
    expect(deliveries[0].data.verification.status).toBe('verified');
    expect(defaults).toBeDefined();
    const events = await t.query(
      `SELECT e.environment_id FROM events e WHERE e.organization_id = $1 AND e.kind = 'account-updated'`,
      [org.organizationId],
    );
    expect(events.map((e) => e.environment_id).sort()).toEqual(
      [org.sandbox.environmentId, org.production.environmentId].sort(),
    );
  });

  it('sends no account-updated for a change of the fee rate, platform or payout hold', async () => {
    const org = await newTenant(t);
    await ops().setFeeRate(CLI_ACTOR, org.organizationId, 250);
    await ops().setPlatform(CLI_ACTOR, org.organizationId, true);
    await ops().setPayoutsHeld(CLI_ACTOR, org.organizationId, true);
    expect(
      await t.query(`SELECT id FROM events WHERE organization_id = $1 AND kind = 'account-updated'`, [
        org.organizationId,
      ]),
    ).toEqual([]);
    const [row] = await t.query(`SELECT fee_bps, platform, payouts_held FROM organizations WHERE id = $1`, [
      org.organizationId,
    ]);
    expect(row).toEqual({ fee_bps: 250, platform: true, payouts_held: true });
    expect((await api(org.sandbox.secretKey).get('/organization')).body.data.platform).toBe(true);
  });

  it('refuses a fee rate outside 0..10000 basis points, and an invalid payout IBAN or bank', async () => {
    const org = await newTenant(t);
    for (const bps of [-1, 10001, 2.5])
      await expect(ops().setFeeRate(CLI_ACTOR, org.organizationId, bps)).rejects.toMatchObject({
        status: 400,
        message: Messages.invalidFeeRate,
      });
    const account = { bank: 'BNM', holderName: 'X', iban: 'MR1300020001010000123456754' };
    await expect(
      ops().setApprovedPayoutAccount(CLI_ACTOR, org.organizationId, account),
    ).rejects.toMatchObject({
      status: 400,
      message: Messages.invalidIban,
    });
    await expect(
      ops().setApprovedPayoutAccount(CLI_ACTOR, org.organizationId, {
        ...account,
        bank: 'NOPE',
        iban: 'MR1300020001010000123456753',
      }),
    ).rejects.toMatchObject({ status: 400, message: 'Unknown bank "NOPE"' });
  });

  it('writes every action to the audit log with the record before and after', async () => {
    const org = await newTenant(t, 'Audited', { verification: 'unverified' });
    await ops().reject(CLI_ACTOR, org.organizationId, 'Blurred ID');
    await ops().setFeeRate(CLI_ACTOR, org.organizationId, 120);
    const rows = await t.query(
      `SELECT actor, action, before, after FROM operator_audit_log WHERE organization_id = $1 ORDER BY created_at, id`,
      [org.organizationId],
    );
    expect(rows).toEqual([
      {
        actor: 'cli',
        action: 'organization.reject',
        before: expect.objectContaining({ verification: { status: 'unverified', reason: null } }),
        after: expect.objectContaining({ verification: { status: 'rejected', reason: 'Blurred ID' } }),
      },
      {
        actor: 'cli',
        action: 'organization.fee_rate',
        before: expect.objectContaining({ feeBps: null }),
        after: expect.objectContaining({ feeBps: 120 }),
      },
    ]);
  });

  it('the audit log refuses UPDATE and DELETE', async () => {
    const org = await newTenant(t);
    await ops().setPlatform(CLI_ACTOR, org.organizationId, true);
    await expect(
      t.query(`UPDATE operator_audit_log SET actor = 'someone' WHERE organization_id = $1`, [
        org.organizationId,
      ]),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.query(`DELETE FROM operator_audit_log WHERE organization_id = $1`, [org.organizationId]),
    ).rejects.toThrow(/append-only/);
    expect(
      await t.query(`SELECT actor FROM operator_audit_log WHERE organization_id = $1`, [org.organizationId]),
    ).toEqual([{ actor: 'cli' }]);
  });
});
