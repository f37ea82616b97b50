import { startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, signedInOwner } from '../helpers/dashboard';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

it('renders every page', async () => {
  const { org, browser } = await signedInOwner(t);
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId: 'smoke-1', amount: 1500, phoneNumber: '22123456' });
  for (const path of [
    '/dashboard',
    '/dashboard/payment-requests',
    '/dashboard/payments',
    '/dashboard/keys',
    '/dashboard/webhooks',
    '/dashboard/webhooks/deliveries',
    '/dashboard/payment-methods',
    '/dashboard/team',
    '/dashboard/account',
  ]) {
    const res = await browser.get(path);
    if (res.status !== 200) console.log(path, res.status, res.text.slice(0, 2000));
    expect(res.status).toBe(200);
  }
  const list = await browser.get('/dashboard/payment-requests?q=smoke-1');
  expect(list.text).toContain('smoke-1');
  const id = /data-id="([^"]+)"/.exec(list.text)![1];
  const detail = await browser.get(`/dashboard/payment-requests/${id}`);
  expect(detail.status).toBe(200);
  console.log(t.logs.filter((l) => l.includes('error')).slice(0, 5));
});
