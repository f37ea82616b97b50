import { Messages } from '../../src/common/errors/messages';
import { newTenant, startTestApp, TestApp, validationBody } from '../helpers/app';
import { expectText } from '../helpers/http';

/* GET/PATCH /billing-settings: an environment's reminders, SMS, dunning and portal settings. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DEFAULTS = {
  reminders: { beforeDueDays: [3], afterDueDays: [1, 3, 7] },
  sms: { enabled: false },
  dunning: { afterDaysOverdue: null, action: 'cancel' },
  portal: { allowCancel: true },
};
const get = (key: string) => t.http.get('/api/v1/billing-settings').set('Authorization', key);
const patch = (key: string, body: unknown) =>
  t.http
    .patch('/api/v1/billing-settings')
    .set('Authorization', key)
    .send(body as object);

describe('billing settings', () => {
  it('has the defaults before any change: reminders 3 days before and 1, 3, 7 after, no SMS, no dunning, portal cancel allowed', async () => {
    const org = await newTenant(t);
    const res = await get(org.sandbox.secretKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: DEFAULTS });
  });

  it('changes only the parts and fields given, keeps the rest, and stores days once each in order', async () => {
    const org = await newTenant(t);
    const sk = org.sandbox.secretKey;
    let res = await patch(sk, { reminders: { afterDueDays: [7, 0, 60, 7] }, sms: { enabled: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...DEFAULTS,
      reminders: { beforeDueDays: [3], afterDueDays: [0, 7, 60] },
      sms: { enabled: true },
    });
    res = await patch(sk, {
      dunning: { afterDaysOverdue: 14, action: 'pause' },
      portal: { allowCancel: false },
    });
    expect(res.body.data).toEqual({
      reminders: { beforeDueDays: [3], afterDueDays: [0, 7, 60] },
      sms: { enabled: true },
      dunning: { afterDaysOverdue: 14, action: 'pause' },
      portal: { allowCancel: false },
    });
    res = await patch(sk, { dunning: { afterDaysOverdue: null }, reminders: { beforeDueDays: [] } });
    expect(res.body.data.dunning).toEqual({ afterDaysOverdue: null, action: 'pause' });
    expect(res.body.data.reminders).toEqual({ beforeDueDays: [], afterDueDays: [0, 7, 60] });
    expect((await get(sk)).body).toEqual(res.body);
  });

  it('answers 422 for days outside 0..60, non-integers, a dunning delay outside 1..365, an unknown action, and changes nothing', async () => {
    const org = await newTenant(t);
    const sk = org.sandbox.secretKey;
    for (const body of [
      { reminders: { beforeDueDays: [61] } },
      { reminders: { afterDueDays: [-1] } },
      { reminders: { afterDueDays: [1.5] } },
      { reminders: { afterDueDays: '1' } },
      { reminders: [3] },
      { sms: { enabled: 'yes' } },
      { dunning: { afterDaysOverdue: 0 } },
      { dunning: { afterDaysOverdue: 366 } },
      { dunning: { action: 'delete' } },
      { portal: { allowCancel: 1 } },
    ]) {
      const res = await patch(sk, body);
      expect(res.status).toBe(422);
      expect(validationBody(res).errors.length).toBeGreaterThan(0);
    }
    const bad = validationBody(await patch(sk, { reminders: { beforeDueDays: [3, 61] } }));
    expect(bad.errors[0]).toMatchObject({
      property: '/reminders/beforeDueDays',
      message: 'Expected array of integers 0-60',
    });
    expect((await get(sk)).body).toEqual({ data: DEFAULTS });
  });

  it('keeps each environment its own: Production and another organization are unchanged', async () => {
    const org = await newTenant(t);
    const other = await newTenant(t);
    await patch(org.sandbox.secretKey, { sms: { enabled: true } });
    expect((await get(org.sandbox.secretKey)).body.data.sms).toEqual({ enabled: true });
    expect((await get(org.production.secretKey)).body).toEqual({ data: DEFAULTS });
    expect((await get(other.sandbox.secretKey)).body).toEqual({ data: DEFAULTS });
  });

  it('keeps both of two concurrent changes of different parts', async () => {
    const org = await newTenant(t);
    const sk = org.sandbox.secretKey;
    await Promise.all([
      patch(sk, { sms: { enabled: true } }),
      patch(sk, { portal: { allowCancel: false } }),
      patch(sk, { dunning: { afterDaysOverdue: 30 } }),
    ]);
    const data = (await get(sk)).body.data;
    expect(data.sms.enabled).toBe(true);
    expect(data.portal.allowCancel).toBe(false);
    expect(data.dunning.afterDaysOverdue).toBe(30);
  });

  it('is for secret keys only', async () => {
    const org = await newTenant(t);
    expectText(await get(org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
    expectText(await patch(org.sandbox.publishableKey, {}), 403, Messages.unauthorizedAccess);
  });
});
