import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const LOCK = join(ROOT, 'dist', '.build-lock');
/** A lock older than this was left by a build that was killed: it is taken over. */
const STALE_MS = 180_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `fn` holding the build lock of dist/, which every suite that builds dist/ (or runs a
 * command that does, like the README's `npm run -s cli`) takes. Two builds at once write the same
 * files together, and a child process of a third suite could load a half-written module. With the
 * builds one at a time, only the first of a run writes: the build is incremental
 * (tsconfig.build.json), so the next ones find nothing to emit and leave dist/ as it is.
 */
export function withBuildLock<T>(fn: () => T): T {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const deadline = Date.now() + 2 * STALE_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      if (Date.now() > deadline) throw new Error(`dist/ build lock held too long: ${LOCK}`);
      sleep(100);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds dist/ (`tsc -p tsconfig.build.json`) under the build lock: see withBuildLock. */
export function buildDist(): void {
  withBuildLock(() =>
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      stdio: 'pipe',
    }),
  );
}
