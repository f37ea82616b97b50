import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

/** dist/.build-stamp: its mtime is the start of the last build (scripts/cli.mjs keeps the same one). */
const STAMP = join(ROOT, 'dist', '.build-stamp');
const ENTRY = join(ROOT, 'dist', 'src', 'cli', 'main.js');

/**
 * The newest modification time of the build's inputs, as scripts/cli.mjs reads it: the .ts files of
 * src/ and bench/ (not the unit specs) and their folders (a file deleted or renamed changes its
 * folder), ormconfig.ts and the two tsconfig files.
 */
function newestInput(): number {
  let newest = 0;
  const see = (file: string) => {
    try {
      newest = Math.max(newest, statSync(file).mtimeMs);
    } catch {
      // absent: nothing to build from
    }
  };
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')) see(p);
    }
    see(dir);
  };
  walk(join(ROOT, 'src'));
  walk(join(ROOT, 'bench'));
  for (const file of ['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json']) see(join(ROOT, file));
  return newest;
}

function builtAt(): number {
  try {
    return existsSync(ENTRY) ? statSync(STAMP).mtimeMs : 0;
  } catch {
    return 0;
  }
}

/**
 * Builds dist/ (`tsc -p tsconfig.build.json`) under the build lock (see withBuildLock), only when a
 * source is newer than the last build, as `npm run cli` decides (scripts/cli.mjs, the same stamp):
 * an incremental tsc with nothing to emit still loads and checks the whole program (6 s of CPU,
 * 19 s on a loaded 2-core machine), once per suite that runs the built service or CLI.
 */
export function buildDist(): void {
  withBuildLock(() => {
    if (newestInput() < builtAt()) return;
    const started = new Date();
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    writeFileSync(STAMP, '');
    utimesSync(STAMP, started, started);
  });
}
