/**
 * The tests' one way to wait for something: polls `check` until it returns a value other than
 * undefined or false, and returns that value; fails at the deadline, naming `what` it waited for.
 * A check may throw to stop waiting at once (a process that exited, say).
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
