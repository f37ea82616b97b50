import { Metrics } from '../common/metrics/metrics';
import { AppConfig, loadConfig } from '../config/config';
import type { Db } from '../database/db';
import type { BatchResult, Renewals } from '../subscriptions/renewals';
import { BillingRun } from './billing-run';

/**
 * How a run drives its concurrent sequences of batches, with the batches stood in for: each one
 * waits until the test settles it, so the test sees which are in flight at every moment.
 */
class Batches {
  readonly pending: Array<{ settle: (r: BatchResult) => void; fail: (err: Error) => void }> = [];
  calls = 0;
  readonly renewals = {
    renewDueBatch: () => {
      this.calls++;
      return new Promise<BatchResult>((settle, fail) => this.pending.push({ settle, fail }));
    },
  } as unknown as Renewals;

  /** Lets the event loop run until `n` batches wait to be settled. */
  async inFlight(n: number): Promise<void> {
    for (let i = 0; i < 100 && this.pending.length < n; i++) await Promise.resolve();
    expect(this.pending.length).toBe(n);
  }

  /** Lets every promise that can settle settle. */
  async flush(): Promise<void> {
    for (let i = 0; i < 100; i++) await Promise.resolve();
  }

  next() {
    return this.pending.shift()!;
  }
}

let nextId = 0;
/** A batch that claimed `claimed` subscriptions and updated `updated` (fresh ids unless given), billing one invoice each. */
function batch(
  claimed: number,
  { updated, stillDue = [], skipped = 0 }: { updated?: string[]; stillDue?: string[]; skipped?: number } = {},
): BatchResult {
  const ids = updated ?? Array.from({ length: claimed - skipped }, () => `s${nextId++}`);
  return {
    claimed,
    skipped,
    invoicesCreated: ids.length,
    subscriptionsUpdated: ids.length,
    updated: ids,
    stillDue,
  };
}
const full = (size: number): BatchResult => batch(size);
const partial = (n: number): BatchResult => batch(n);

function billingRun(
  concurrency: number,
  batchSize = 10,
  inTransaction = false,
): { run: BillingRun; batches: Batches } {
  const batches = new Batches();
  const config: AppConfig = loadConfig({
    BILLING_CONCURRENCY: String(concurrency),
    BILLING_BATCH_SIZE: String(batchSize),
  });
  const db = { inTransaction } as Db;
  return { run: new BillingRun(batches.renewals, config, new Metrics(), db), batches };
}

describe('BillingRun', () => {
  it('bills BILLING_CONCURRENCY batches at once, each sequence going on while its batches are full, and sums them', async () => {
    const { run, batches } = billingRun(3);
    const result = run.run();
    await batches.inFlight(3);
    batches.next().settle(full(10));
    batches.next().settle(partial(4)); // this sequence found less than a batch: it stops
    await batches.inFlight(2);
    batches.next().settle(full(10));
    batches.next().settle(full(10));
    await batches.inFlight(2);
    batches.next().settle(partial(0));
    batches.next().settle(partial(1));
    expect(await result).toEqual({ invoicesCreated: 35, subscriptionsUpdated: 35 });
    expect(batches.calls).toBe(6);
  });

  it("bills a test clock's moment with one batch, and the other sequences only after a full one", async () => {
    const { run, batches } = billingRun(3);
    const moment = run.run({ environmentId: 'env', now: new Date(), clock: 'clock' });
    await batches.inFlight(1);
    await batches.flush(); // every chance for a second batch to start: none does
    expect(batches.pending).toHaveLength(1);
    batches.next().settle(partial(4));
    expect(await moment).toEqual({ invoicesCreated: 4, subscriptionsUpdated: 4 });
    expect(batches.calls).toBe(1);

    const busy = run.run({ environmentId: 'env', now: new Date(), clock: 'clock' });
    await batches.inFlight(1);
    batches.next().settle(full(10)); // more is due: the sequences start
    await batches.inFlight(3);
    for (let i = 0; i < 3; i++) batches.next().settle(partial(i));
    expect(await busy).toEqual({ invoicesCreated: 13, subscriptionsUpdated: 13 });
    expect(batches.calls).toBe(5);
  });

  it('counts a subscription updated by several batches, of one sequence or of two, once', async () => {
    const { run, batches } = billingRun(2, 3);
    const result = run.run();
    await batches.inFlight(2);
    // `a` and `b` are far behind: updated, and still due.
    batches.next().settle(batch(3, { updated: ['a', 'b', 'c'], stillDue: ['a', 'b'] }));
    await batches.inFlight(2);
    batches.next().settle(batch(3, { updated: ['a', 'd', 'e'], stillDue: ['a'] }));
    await batches.inFlight(2);
    batches.next().settle(batch(3, { updated: ['b', 'a', 'f'] }));
    batches.next().settle(batch(0));
    await batches.inFlight(1);
    batches.next().settle(batch(0));
    expect(await result).toEqual({ invoicesCreated: 9, subscriptionsUpdated: 6 });
  });

  it('goes on after a full batch whose subscriptions another batch had just moved on (skipped, none updated)', async () => {
    const { run, batches } = billingRun(1, 3);
    const result = run.run();
    await batches.inFlight(1);
    batches.next().settle(batch(3, { skipped: 3 }));
    await batches.inFlight(1);
    batches.next().settle(batch(3, { skipped: 1 }));
    await batches.inFlight(1);
    batches.next().settle(batch(1));
    expect(await result).toEqual({ invoicesCreated: 3, subscriptionsUpdated: 3 });
    expect(batches.calls).toBe(3);
  });

  it('stops after a full batch that changed nothing and skipped nothing (it must not loop)', async () => {
    const { run, batches } = billingRun(1, 3);
    const result = run.run();
    await batches.inFlight(1);
    batches.next().settle(batch(3, { updated: [] }));
    expect(await result).toEqual({ invoicesCreated: 0, subscriptionsUpdated: 0 });
    expect(batches.calls).toBe(1);
  });

  it("bills one batch at a time within a caller's transaction, whatever BILLING_CONCURRENCY (its batches share one connection)", async () => {
    const { run, batches } = billingRun(3, 10, true);
    const result = run.run();
    await batches.inFlight(1);
    for (let i = 0; i < 100; i++) await Promise.resolve();
    expect(batches.pending.length).toBe(1);
    batches.next().settle(full(10));
    await batches.inFlight(1);
    batches.next().settle(partial(2));
    expect(await result).toEqual({ invoicesCreated: 12, subscriptionsUpdated: 12 });
    expect(batches.calls).toBe(2);
  });

  it('defaults to three batches at once', async () => {
    expect(new AppConfig().BILLING_CONCURRENCY).toBe(3);
    const { run, batches } = billingRun(new AppConfig().BILLING_CONCURRENCY);
    const result = run.run();
    await batches.inFlight(3);
    for (let i = 0; i < 100; i++) await Promise.resolve(); // every chance for a fourth batch to start: none does
    expect(batches.pending.length).toBe(3);
    batches.next().settle(partial(0));
    batches.next().settle(partial(0));
    batches.next().settle(partial(0));
    expect(await result).toEqual({ invoicesCreated: 0, subscriptionsUpdated: 0 });
  });

  it('fails when a batch fails, only once the other batches in flight are written, and starts none after it', async () => {
    const { run, batches } = billingRun(2);
    let outcome: unknown = 'running';
    const result = run.run().then(
      () => 'resolved',
      (err: Error) => err.message,
    );
    void result.then((o) => (outcome = o));
    await batches.inFlight(2);
    batches.next().fail(new Error('connection lost'));
    await batches.flush();
    expect(outcome).toBe('running');
    batches.next().settle(full(10)); // a full batch, but the run has failed: no next one
    expect(await result).toBe('connection lost');
    expect(batches.calls).toBe(2);
  });

  it('on shutdown, waits for every batch in flight and starts no other', async () => {
    const { run, batches } = billingRun(2);
    const result = run.run();
    await batches.inFlight(2);
    let shutDown = false;
    const shutdown = run.beforeApplicationShutdown().then(() => (shutDown = true));
    batches.next().settle(full(10));
    await batches.flush();
    expect(batches.pending).toHaveLength(1);
    expect(shutDown).toBe(false);
    batches.next().settle(full(10));
    await shutdown;
    expect(await result).toEqual({ invoicesCreated: 20, subscriptionsUpdated: 20 });
    expect(batches.calls).toBe(2);
  });
});
