import { spawn, ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { BankSimulator, startBankSimulator } from '../../src/payments/banks/simulator/bank-simulator';
import { ReconciliationService } from '../../src/payments/reconciliation.service';
import { databaseEnv, newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { freePort } from '../../src/common/net';
import { buildDist } from '../helpers/build';

/**
 * The Production path: the gateway adapter against the bank simulator server, its faults,
 * concurrency, reconciliation and a crash between the bank's answer and the commit.
 * Reconciliation is global (every pending payment of the database), so this file runs on a
 * database of its own, with the one simulator that knows its payments: on the shared one, a pass
 * failed another file's Production payment while that file's bank was still answering ("the bank
 * has no record of the charge"), and that file's request was never paid.
 */

const BANK_TIMEOUT_MS = 400;
let db: { url: string; drop(): Promise<void> };
let t: TestApp;
let sim: BankSimulator;
let org: CreatedOrganization;
let methods: Record<'bankily' | 'masrivi' | 'sedad', string>;
let payments: ReconciliationService;
let seq = 0;

beforeAll(async () => {
  sim = await startBankSimulator();
  db = await privateDatabase();
  t = await startTestApp(
    {
      BANK_TIMEOUT_MS: String(BANK_TIMEOUT_MS),
      SANDBOX_BANK_TIMEOUT_MS: '300',
      BANK_BANKILY_URL: sim.url,
      BANK_MASRIVI_URL: sim.url,
      // BANK_SEDAD_URL unset: a Production bank that is not configured.
    },
    db.url,
  );
  payments = t.app.get(ReconciliationService);
  org = await newTenant(t);
  const res = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', org.production.publishableKey)
    .expect(200);
  methods = Object.fromEntries(
    (res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]),
  ) as never;
});
beforeEach(() => sim.reset());
afterAll(async () => {
  await t.close();
  await sim.close();
  await db.drop();
});

async function newRequest(amount = 2500): Promise<{ id: string; transactionId: string }> {
  seq += 1;
  const transactionId = `live_${Date.now()}_${seq}`;
  const res = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.production.secretKey)
    .send({ transactionId, amount })
    .expect(200);
  return { id: res.body.data.id, transactionId };
}

function pay(
  transactionId: string,
  phoneNumber = '22222222',
  method: keyof typeof methods = 'masrivi',
  passCode?: string,
) {
  return t.http
    .post('/api/v1/payment')
    .set('Authorization', org.production.publishableKey)
    .send({
      transactionId,
      phoneNumber,
      configurationId: methods[method],
      ...(passCode !== undefined ? { passCode } : {}),
    });
}

async function requestStatus(id: string): Promise<string> {
  const [row] = await t.query('SELECT status FROM payment_requests WHERE id = $1', [id]);
  return row.status;
}

async function paymentsOf(requestId: string): Promise<Array<{ id: string; status: string }>> {
  return t.query('SELECT id, status FROM payments WHERE payment_request_id = $1 ORDER BY created_at', [
    requestId,
  ]);
}

describe('pay through the bank gateway (Production)', () => {
  it('completes a payment: the charge reaches the bank once, with the payment id as its reference', async () => {
    const pr = await newRequest();
    const res = await pay(pr.transactionId).expect(200);
    expect(res.body.data).toMatchObject({
      status: 'completed',
      amount: 2500,
      referenceId: expect.stringMatching(/^bank_/),
    });
    expect(sim.stats()).toMatchObject({ chargeRequests: 1, charges: 1 });
    expect(sim.charge(res.body.data.id)).toMatchObject({
      amount: 2500,
      phoneNumber: '22222222',
      status: 'completed',
    });
    expect(await requestStatus(pr.id)).toBe('paid');
  });

  it('sends the Bankily pass code to the bank, which rejects 0000 (502)', async () => {
    const pr = await newRequest();
    const res = await pay(pr.transactionId, '22222222', 'bankily', '0000').expect(502);
    expect(res.text).toBe(Messages.bankFailure);
    await pay(pr.transactionId, '22222222', 'bankily', '5678').expect(200);
  });

  it('returns 502 when the bank declines, records a failed payment and leaves the request payable', async () => {
    sim.setMode('decline');
    const pr = await newRequest();
    const res = await pay(pr.transactionId).expect(502);
    expect(res.text).toBe(Messages.bankFailure);
    expect(await paymentsOf(pr.id)).toEqual([expect.objectContaining({ status: 'failed' })]);
    sim.setMode('normal');
    await pay(pr.transactionId).expect(200);
  });

  it('returns 502 when the bank answers 5xx, records a failed payment and leaves the request payable', async () => {
    sim.setMode('error');
    const pr = await newRequest();
    const res = await pay(pr.transactionId).expect(502);
    expect(res.text).toBe(Messages.bankFailure);
    expect(await paymentsOf(pr.id)).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(await requestStatus(pr.id)).toBe('pending');
  });

  it('returns 502 after BANK_TIMEOUT_MS when the bank hangs, records a failed payment and leaves the request payable', async () => {
    sim.setMode('hang');
    const pr = await newRequest();
    const started = Date.now();
    const res = await pay(pr.transactionId).expect(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(BANK_TIMEOUT_MS - 10);
    expect(res.text).toBe(Messages.bankFailure);
    const [failed] = await t.query(
      'SELECT status, failure_reason FROM payments WHERE payment_request_id = $1',
      [pr.id],
    );
    expect(failed).toEqual({ status: 'failed', failure_reason: 'bank did not answer in time' });
    sim.setMode('normal');
    await pay(pr.transactionId).expect(200);
  });

  it('returns 502 for a bank with no gateway configured, and logs why', async () => {
    const pr = await newRequest();
    const res = await pay(pr.transactionId, '22222222', 'sedad').expect(502);
    expect(res.text).toBe(Messages.bankFailure);
    expect(t.logs.some((l) => l.includes('no gateway is configured for sedad'))).toBe(true);
    expect(sim.stats().chargeRequests).toBe(0);
  });

  it('returns a pending payment when the bank says pending, and refresh-status completes it once the bank confirms', async () => {
    sim.setMode('pending-then-confirm');
    const pr = await newRequest();
    const res = await pay(pr.transactionId).expect(200);
    expect(res.body.data.status).toBe('pending');
    const again = await pay(pr.transactionId).expect(409);
    expect(again.text).toBe(Messages.paymentInProgress);
    const refreshed = await t.http
      .patch(`/api/v1/payment-request/${pr.transactionId}/refresh-status`)
      .set('Authorization', org.production.secretKey)
      .expect(200);
    expect(refreshed.body.data).toMatchObject({ id: pr.id, status: 'paid' });
    const payment = await t.http
      .get(`/api/v1/payment/${res.body.data.id}`)
      .set('Authorization', org.production.secretKey)
      .expect(200);
    expect(payment.body.data.status).toBe('completed');
    expect(sim.stats().chargeRequests).toBe(1);
  });
});

describe('money safety', () => {
  it('50 concurrent pays of one request: exactly one completed payment, one charge at the bank, the rest 409', async () => {
    const pr = await newRequest();
    const results = await Promise.all(Array.from({ length: 50 }, () => pay(pr.transactionId)));
    const statuses = results.map((r) => r.status);
    expect(
      results.filter((r) => r.status !== 409 && r.status !== 200).map((r) => `${r.status} ${r.text}`),
    ).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) {
      expect([Messages.paymentRequestAlreadyPaid, Messages.paymentInProgress]).toContain(r.text);
    }
    expect(sim.stats().chargeRequests).toBe(1);
    expect(await paymentsOf(pr.id)).toEqual([expect.objectContaining({ status: 'completed' })]);
    expect(await requestStatus(pr.id)).toBe('paid');
  });

  it('the database refuses a second completed payment for one request', async () => {
    const pr = await newRequest();
    const done = await pay(pr.transactionId).expect(200);
    await expect(
      t.query(
        `INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number, status, completed_at, next_check_at)
         SELECT gen_random_uuid(), environment_id, payment_request_id, payment_method_id, amount, phone_number, 'completed', now(), now()
         FROM payments WHERE id = $1`,
        [done.body.data.id],
      ),
    ).rejects.toThrow(/payments_one_completed_per_request/);
  });
});

describe('reconciliation', () => {
  it('completes a pending payment the bank has since confirmed, and a second run changes nothing', async () => {
    sim.setMode('pending');
    const pr = await newRequest();
    const res = await pay(pr.transactionId).expect(200);
    expect(res.body.data.status).toBe('pending');

    await payments.reconcile({ minAgeMs: 0 });
    expect(await requestStatus(pr.id)).toBe('pending');

    sim.settle(res.body.data.id, 'completed');
    await t.query('UPDATE payments SET next_check_at = now() WHERE id = $1', [res.body.data.id]);
    await payments.reconcile({ minAgeMs: 0 });
    expect(await requestStatus(pr.id)).toBe('paid');
    await payments.reconcile({ minAgeMs: 0 });
    expect(await paymentsOf(pr.id)).toEqual([{ id: res.body.data.id, status: 'completed' }]);
    const events = await t.query(
      `SELECT kind FROM events WHERE data->>'id' IN ($1, $2) AND kind LIKE '%updated'`,
      [res.body.data.id, pr.id],
    );
    expect(events.map((e: { kind: string }) => e.kind).sort()).toEqual([
      'payment-request-updated',
      'payment-updated',
    ]);
    expect(sim.stats().chargeRequests).toBe(1);
  });

  it('fails a pending payment the bank declined, leaving the request payable', async () => {
    sim.setMode('pending');
    const pr = await newRequest();
    const res = await pay(pr.transactionId).expect(200);
    sim.settle(res.body.data.id, 'declined');
    await payments.reconcile({ minAgeMs: 0 });
    expect(await paymentsOf(pr.id)).toEqual([expect.objectContaining({ status: 'failed' })]);
    sim.setMode('normal');
    await pay(pr.transactionId).expect(200);
  });

  it('two runs at once settle each pending payment once', async () => {
    sim.setMode('pending-then-confirm');
    const prs = await Promise.all([newRequest(), newRequest(), newRequest()]);
    for (const pr of prs) await pay(pr.transactionId).expect(200);
    const [a, b] = await Promise.all([
      payments.reconcile({ minAgeMs: 0 }),
      payments.reconcile({ minAgeMs: 0 }),
    ]);
    expect(a.completed + b.completed).toBeGreaterThanOrEqual(3);
    expect(sim.stats().statusRequests).toBe(3); // each payment was claimed by one pass only
    for (const pr of prs) {
      expect(await requestStatus(pr.id)).toBe('paid');
      const [{ count }] = await t.query(
        `SELECT count(*)::int AS count FROM events WHERE kind = 'payment-request-updated' AND data->>'id' = $1`,
        [pr.id],
      );
      expect(count).toBe(1);
    }
  });

  it('leaves a young pending payment the bank has no record of, and fails it once older than a bank call', async () => {
    const pr = await newRequest();
    // A pending payment whose charge never left the service (it died before sending it).
    const [{ id }] = await t.query(
      `INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number, next_check_at)
       VALUES (gen_random_uuid(), $1, $2, $3, 2500, '22222222', now()) RETURNING id`,
      [org.production.environmentId, pr.id, methods.masrivi],
    );
    await payments.reconcile({ minAgeMs: 0 });
    expect(await paymentsOf(pr.id)).toEqual([{ id, status: 'pending' }]);
    await t.query(
      `UPDATE payments SET created_at = now() - interval '1 hour', next_check_at = now() WHERE id = $1`,
      [id],
    );
    await payments.reconcile({ minAgeMs: 0 });
    expect(await paymentsOf(pr.id)).toEqual([{ id, status: 'failed' }]);
    expect(await requestStatus(pr.id)).toBe('pending');
  });
});

describe('the reconciliation schedule', () => {
  it('runs every RECONCILE_INTERVAL_MS and completes a payment the bank confirmed', async () => {
    const scheduled = await startTestApp(
      {
        RECONCILE_INTERVAL_MS: '50',
        RECONCILE_MIN_AGE_MS: '0',
        BANK_TIMEOUT_MS: String(BANK_TIMEOUT_MS),
        BANK_MASRIVI_URL: sim.url,
      },
      db.url,
    );
    try {
      sim.setMode('pending');
      const pr = await newRequest();
      const res = await pay(pr.transactionId).expect(200);
      sim.settle(res.body.data.id, 'completed');
      await t.query('UPDATE payments SET next_check_at = now() WHERE id = $1', [res.body.data.id]);
      await waitFor(
        async () => (await requestStatus(pr.id)) === 'paid',
        'the scheduled pass to mark the request paid',
        30_000,
      );
    } finally {
      await scheduled.close();
    }
  });
});

describe('a crash between the bank and the commit', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('SIGKILL after the bank charged leaves a pending payment that reconciliation completes', async () => {
    const root = join(__dirname, '../..');
    buildDist();
    const port = await freePort();
    child = spawn(process.execPath, [join(root, 'dist/src/main.js')], {
      cwd: root,
      env: {
        ...process.env,
        ...databaseEnv(db.url),
        PORT: String(port),
        DEMO_ORG: 'false',
        LOG_LEVEL: 'warn',
        RECONCILE_INTERVAL_MS: '0',
        BANK_TIMEOUT_MS: '60000',
        BANK_MASRIVI_URL: sim.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Both streams kept: the service logs (a failed start's error too) on stdout.
    let output = '';
    const keep = (c: Buffer) => (output = (output + c.toString()).slice(-4000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const started = child;
    const base = `http://127.0.0.1:${port}`;
    // Up to 120 s: on a loaded machine behind PgBouncer a start once took over 60 s (this wait also
    // ends, with the service's last output, as soon as the process exits: a failed start).
    await waitFor(
      () => {
        if (started.exitCode !== null || started.signalCode !== null)
          throw new Error(`the service exited (${started.exitCode ?? started.signalCode}) while starting`);
        return fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        );
      },
      'the service to start',
      120_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; its output: ${output}`);
    });

    // The bank charges at once but answers late: the service is killed while it waits.
    sim.setMode('slow', 60_000);
    const pr = await newRequest();
    const inFlight = fetch(`${base}/api/v1/payment`, {
      method: 'POST',
      headers: { authorization: org.production.publishableKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        transactionId: pr.transactionId,
        phoneNumber: '22222222',
        configurationId: methods.masrivi,
      }),
    }).then(
      (res) => `answered ${res.status}`,
      (err: Error) => err.message,
    );
    await waitFor(() => sim.stats().charges === 1, 'the charge to reach the bank', 30_000);
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(await inFlight).toMatch(/fetch failed/); // the service never answered

    const [pending] = await paymentsOf(pr.id);
    expect(pending.status).toBe('pending');
    expect(await requestStatus(pr.id)).toBe('pending');
    expect(sim.charge(pending.id)?.status).toBe('completed');

    sim.setMode('normal');
    await payments.reconcile({ minAgeMs: 0 });
    expect(await paymentsOf(pr.id)).toEqual([{ id: pending.id, status: 'completed' }]);
    expect(await requestStatus(pr.id)).toBe('paid');
    expect(sim.stats().chargeRequests).toBe(1);
  }, 240_000);
});
