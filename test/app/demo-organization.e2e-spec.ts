import { createDemoOrganization } from '../../src/demo-organization';
import { privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { earn, postPayout } from '../helpers/payouts';

/*
 * The first start's demo organization (README "Quick start") can follow docs/payouts.md with the
 * printed login: verified, with an approved Sandbox-payable payout account.
 */
let t: TestApp;
let db: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  // A database of its own: the demo owner's email is the same at every first start.
  db = await privateDatabase();
  t = await startTestApp({ PAYOUT_DELAY_DAYS: '0' }, db.url);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

it('has an approved payout account, and POST /payouts pays its Sandbox balance to it', async () => {
  const demo = await createDemoOrganization(t.app);
  const key = demo.sandbox.secretKey;
  const organization = await t.http.get('/api/v1/organization').set('Authorization', key).expect(200);
  expect(organization.body.data).toMatchObject({
    name: 'Demo Merchant',
    verification: { status: 'verified' },
    payoutAccount: { bank: 'BNM', holderName: 'Demo Merchant', ibanLast4: '6753', status: 'approved' },
  });
  await earn(t, key, 3250);
  const payout = (await postPayout(t, key).expect(200)).body.data;
  expect(payout).toMatchObject({
    amount: 3250,
    status: 'paid',
    destination: { bank: 'BNM', holderName: 'Demo Merchant', ibanLast4: '6753' },
  });
  const audit = await t.query<{ action: string; actor: string }>(
    'SELECT action, actor FROM operator_audit_log WHERE organization_id = $1',
    [demo.organizationId],
  );
  expect(audit).toEqual([{ action: 'organization.payout_account', actor: 'cli' }]);
});
