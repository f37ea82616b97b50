import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/common/net';
import { waitFor } from './poll';

/**
 * A PgBouncer (Debian's, /usr/sbin/pgbouncer) in transaction pooling in front of `serverUrl`'s
 * server, for running the suite as a merchant behind a pooler would (KHOUMS_TEST_PGBOUNCER=1):
 * every database of that server is reachable through it, with the server URL's user and password.
 */
export async function startPgBouncer(serverUrl: string): Promise<{ port: number; stop(): Promise<void> }> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const dir = mkdtempSync(join(tmpdir(), 'khoums-pgbouncer-'));
  const port = await freePort();
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" "${password}"\n`, { mode: 0o600 });
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 20',
      'ignore_startup_parameters = extra_float_digits,options',
      'server_login_retry = 1',
      'query_wait_timeout = 30',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: as the `postgres` user then.
  const owner =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
          gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
        }
      : {};
  if (owner.uid !== undefined) {
    chownSync(dir, owner.uid, owner.gid);
    for (const f of ['userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, f), owner.uid, owner.gid);
  }
  let log = '';
  const child: ChildProcess = spawn('/usr/sbin/pgbouncer', [join(dir, 'pgbouncer.ini')], {
    ...owner,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = new URL(serverUrl);
  url.port = String(port);
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${log}`);
        const c = new Client({ connectionString: url.toString() });
        try {
          await c.connect();
          await c.query('SELECT 1');
          return true;
        } catch {
          return false;
        } finally {
          await c.end().catch(() => undefined);
        }
      },
      'pgbouncer to accept connections',
      20_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, stop };
}
