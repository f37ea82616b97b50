import { Messages } from '../../src/common/errors/messages';
import { newTenant, startTestApp, TestApp, validationBody } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';
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
  invoicePrefix: null,
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
      invoicePrefix: null,
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

  describe('invoicePrefix', () => {
    const invoiceOf = async (
      org: Awaited<ReturnType<typeof newTenant>>,
      c: Awaited<ReturnType<typeof catalog>>,
    ) => {
      const s = await createSubscription(t, org.sandbox.secretKey, {
        customerId: c.customer.id,
        priceId: c.price.id,
      });
      return (await invoicesOf(t, org.sandbox.secretKey, s.id))[0];
    };

    it('is set and read; invoices numbered after take it, those before keep theirs, and null goes back to the default', async () => {
      const org = await newTenant(t, 'Atar Commerce');
      const sk = org.sandbox.secretKey;
      const c = await catalog(t, org);
      const before = await invoiceOf(org, c);
      expect(before.number).toBe('ATAR-000001');

      let res = await patch(sk, { invoicePrefix: 'AC2026' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...DEFAULTS, invoicePrefix: 'AC2026' });
      expect((await get(sk)).body.data.invoicePrefix).toBe('AC2026');
      // A change of another part keeps it.
      res = await patch(sk, { sms: { enabled: true } });
      expect(res.body.data.invoicePrefix).toBe('AC2026');

      const after = await invoiceOf(org, c);
      expect(after.number).toBe('AC2026-000002');
      // The number already given keeps its prefix.
      const again = await t.http.get(`/api/v1/invoices/${before.id}`).set('Authorization', sk);
      expect(again.body.data.number).toBe('ATAR-000001');

      res = await patch(sk, { invoicePrefix: null });
      expect(res.body.data.invoicePrefix).toBeNull();
      expect((await invoiceOf(org, c)).number).toBe('ATAR-000003');
      expect((await get(sk)).body.data.invoicePrefix).toBeNull();
    });

    it('set before any invoice, numbers the first one; other environments and organizations keep theirs', async () => {
      const org = await newTenant(t, 'Boutique Rosso');
      const other = await newTenant(t, 'Boulangerie Aleg');
      expect((await patch(org.sandbox.secretKey, { invoicePrefix: 'BR1' })).status).toBe(200);
      expect((await invoiceOf(org, await catalog(t, org))).number).toBe('BR1-000001');
      expect((await get(org.production.secretKey)).body.data.invoicePrefix).toBeNull();
      expect((await get(other.sandbox.secretKey)).body.data.invoicePrefix).toBeNull();
      expect((await invoiceOf(other, await catalog(t, other))).number).toBe('BOUL-000001');
    });

    it('answers 422 `Expected 1 to 10 of A-Z 0-9` for anything else (lower case, other characters, empty, 11 long, not a string) and changes nothing', async () => {
      const org = await newTenant(t);
      const sk = org.sandbox.secretKey;
      expect((await patch(sk, { invoicePrefix: 'KEEP' })).status).toBe(200);
      for (const invoicePrefix of [
        'atar',
        'Atar',
        'AT-1',
        'AT AR',
        'É',
        '',
        'ABCDEFGHIJK',
        12,
        true,
        ['A'],
      ]) {
        const res = await patch(sk, { invoicePrefix });
        expect(res.status).toBe(422);
        expect(validationBody(res).errors).toEqual([
          expect.objectContaining({ property: '/invoicePrefix', message: 'Expected 1 to 10 of A-Z 0-9' }),
        ]);
      }
      expect((await patch(sk, { invoicePrefix: 'ABCDEFGHIJ' })).body.data.invoicePrefix).toBe('ABCDEFGHIJ');
      expect((await patch(sk, { invoicePrefix: '7' })).body.data.invoicePrefix).toBe('7');
    });
  });

  it('is for secret keys only', async () => {
    const org = await newTenant(t);
    expectText(await get(org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
    expectText(await patch(org.sandbox.publishableKey, {}), 403, Messages.unauthorizedAccess);
  });
});
