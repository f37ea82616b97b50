/**
 * Watches an async method of a class on every instance, before any instance exists: how often each
 * instance called it, and the most calls of one instance that were ever in flight at once. A job's
 * "never overlaps itself" is `most === 1`, which stays true however often the job's own clock fires
 * while a test runs (a job whose switch the test turns on at start has its timer, which may fire
 * between the app's start and the test's ticks, so counting calls alone is a race with the clock). `settled()` waits for every call in flight:
 * a tick that finds its job's clock-started run still going returns without waiting for it.
 */
export function watchOverlap<C extends object, K extends keyof C & string>(
  prototype: C,
  method: K,
): { calls(on: C): number; most(): number; settled(): Promise<void>; restore(): void } {
  const original = prototype[method] as unknown as (...args: unknown[]) => Promise<unknown>;
  const inFlight = new Map<object, number>();
  const calls = new Map<object, number>();
  const pending = new Set<Promise<unknown>>();
  let most = 0;
  const spy = jest.spyOn(prototype, method as never) as unknown as jest.SpyInstance;
  spy.mockImplementation(async function (this: C, ...args: unknown[]) {
    calls.set(this, (calls.get(this) ?? 0) + 1);
    const now = (inFlight.get(this) ?? 0) + 1;
    inFlight.set(this, now);
    most = Math.max(most, now);
    const call = original.apply(this, args);
    pending.add(call);
    try {
      return await call;
    } finally {
      pending.delete(call);
      inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
    }
  });
  return {
    calls: (on) => calls.get(on) ?? 0,
    most: () => most,
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    restore: () => spy.mockRestore(),
  };
}
