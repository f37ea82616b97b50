import { Metrics } from '../common/metrics/metrics';
import { AppConfig, loadConfig } from '../config/config';
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

const full = (size: number): BatchResult => ({
  claimed: size,
  invoicesCreated: size,
  subscriptionsUpdated: size,
});
const partial = (n: number): BatchResult => ({ claimed: n, invoicesCreated: n, subscriptionsUpdated: n });

function billingRun(concurrency: number, batchSize = 10): { run: BillingRun; batches: Batches } {
  const batches = new Batches();
  const config: AppConfig = loadConfig({
    BILLING_CONCURRENCY: String(concurrency),
    BILLING_BATCH_SIZE: String(batchSize),
  });
  return { run: new BillingRun(batches.renewals, config, new Metrics()), batches };
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

  it('defaults to one batch at once (BILLING_CONCURRENCY opts into more)', async () => {
    expect(new AppConfig().BILLING_CONCURRENCY).toBe(1);
    const { run, batches } = billingRun(new AppConfig().BILLING_CONCURRENCY);
    const result = run.run();
    await batches.inFlight(1);
    for (let i = 0; i < 100; i++) await Promise.resolve(); // every chance for a second batch to start: none does
    expect(batches.pending.length).toBe(1);
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
