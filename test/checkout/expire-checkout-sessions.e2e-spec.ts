import { ExpireCheckoutSessionsJob } from '../../src/checkout/expire-checkout-sessions.job';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createSession, eventsFor, makeOverdue, txId } from '../helpers/checkout';

describe('checkout session expiry job', () => {
  let t: TestApp;
  let sk: string;

  beforeAll(async () => {
    t = await startTestApp();
    sk = (await newTenant(t)).sandbox.secretKey;
  });
  afterAll(() => t.close());

  const status = async (id: string) =>
    (await t.query<{ status: string }>('SELECT status FROM checkout_sessions WHERE id = $1', [id]))[0].status;

  it('expires open sessions past expiresAt and leaves the others, idempotently', async () => {
    const due = await createSession(t, sk, { transactionId: txId(), amount: 100 });
    const notDue = await createSession(t, sk, { transactionId: txId(), amount: 100 });
    await makeOverdue(t, due.data.id);
    const job = t.app.get(ExpireCheckoutSessionsJob);

    await job.run();
    await job.run();

    expect(await status(due.data.id)).toBe('expired');
    expect(await status(notDue.data.id)).toBe('open');
    expect(await eventsFor(t, 'checkout-session-expired', due.data.id)).toHaveLength(1);
    expect(await eventsFor(t, 'checkout-session-expired', notDue.data.id)).toHaveLength(0);
  });

  it('expires each session exactly once when two runs happen at the same time', async () => {
    const sessions = await Promise.all(
      Array.from({ length: 8 }, () => createSession(t, sk, { transactionId: txId(), amount: 100 })),
    );
    for (const s of sessions) await makeOverdue(t, s.data.id);
    const job = t.app.get(ExpireCheckoutSessionsJob);

    await Promise.all([job.run(), job.run()]);

    for (const s of sessions) {
      expect(await status(s.data.id)).toBe('expired');
      expect(await eventsFor(t, 'checkout-session-expired', s.data.id)).toHaveLength(1);
    }
  });

  it('does not touch completed or cancelled sessions past their deadline', async () => {
    const s = await createSession(t, sk, { transactionId: txId(), amount: 100 });
    await t.query(
      `UPDATE checkout_sessions SET status = 'cancelled', expires_at = now() - interval '1 minute' WHERE id = $1`,
      [s.data.id],
    );
    await t.app.get(ExpireCheckoutSessionsJob).run();
    expect(await status(s.data.id)).toBe('cancelled');
    expect(await eventsFor(t, 'checkout-session-expired', s.data.id)).toHaveLength(0);
  });
});
