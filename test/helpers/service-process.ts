import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { directUrlFor } from './app';
import { waitFor } from './poll';

const FIXTURES = join(__dirname, '../webhooks/fixtures');

/**
 * A service instance in a child process on `databaseUrl`, which a test can SIGKILL: its port, once
 * it listens, and `stop` (SIGKILL unless it has already exited), for the suite's cleanup.
 */
export async function serviceProcess(
  databaseUrl: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number; stop: () => Promise<void>; stderr: () => string }> {
  const child = spawn(process.execPath, [join(FIXTURES, 'run-ts.js'), join(FIXTURES, 'service-process.ts')], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      // Webhook receivers of the suites listen on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      ...env,
      KHOUMS_TEST_DATABASE_URL: databaseUrl,
      ...(directUrlFor(databaseUrl) ? { DATABASE_DIRECT_URL: directUrlFor(databaseUrl) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  };
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  try {
    const port = await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`service process exited: ${err}`);
        const line = out.split('\n').find((l) => l.startsWith('{'));
        return line ? (JSON.parse(line) as { port: number }).port : undefined;
      },
      'the service process to listen',
      120_000, // a loaded 2-core machine (a whole suite beside other work) has taken over 60 s
    );
    return { child, port, stop, stderr: () => err };
  } catch (e) {
    await stop();
    throw e;
  }
}
