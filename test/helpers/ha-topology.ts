import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { waitFor } from './poll';
import { processTree, signalAll } from './processes';

const run = promisify(execFile);
const DEPLOY = join(__dirname, '../../deploy/ha');

export type NodeName = 'node1' | 'node2';
export const NODES: NodeName[] = ['node1', 'node2'];

export interface Member {
  name: NodeName;
  /** leader, sync_standby, replica… */
  role: string;
  state: string;
  lag?: number | string;
}

/**
 * The topology of deploy/ha (etcd, two PostgreSQL nodes under Patroni in synchronous mode, HAProxy
 * following the leader), started by its own `start` script for a suite, and what a test does to
 * it: kill a node's PostgreSQL, freeze a node, switch the leader over. Without Patroni, etcd or
 * HAProxy installed, `start` fails with the command that installs them: the suite fails, never
 * skips.
 */
export class HaTopology {
  private constructor(private readonly env: Record<string, string>) {}

  static async start(): Promise<HaTopology> {
    let stdout: string;
    try {
      ({ stdout } = await run(join(DEPLOY, 'start'), [], { timeout: 240_000 }));
    } catch (err) {
      const { stderr, message } = err as { stderr?: string; message: string };
      throw new Error(`deploy/ha/start failed: ${stderr?.trim() || message}`);
    }
    const env = Object.fromEntries(
      stdout
        .split('\n')
        .filter((l) => /^[A-Z0-9_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    return new HaTopology(env);
  }

  get dir(): string {
    return this.env.HA_DIR;
  }

  /** HAProxy's port that follows the leader. */
  get databaseUrl(): string {
    return this.env.DATABASE_URL;
  }

  /** HAProxy's port that goes to a running standby. */
  get readUrl(): string {
    return this.env.DATABASE_READ_URL;
  }

  /** The node's PostgreSQL itself, bypassing HAProxy. */
  nodeUrl(node: NodeName): string {
    const u = new URL(this.databaseUrl);
    u.port = this.env[`HA_${node.toUpperCase()}_PG_PORT`];
    return u.toString();
  }

  private rest(node: NodeName, path: string): string {
    return `http://127.0.0.1:${this.env[`HA_${node.toUpperCase()}_REST_PORT`]}${path}`;
  }

  /** The cluster as Patroni's REST API of any answering node sees it. */
  async members(): Promise<Member[]> {
    for (const node of NODES) {
      try {
        const res = await fetch(this.rest(node, '/cluster'), { signal: AbortSignal.timeout(1000) });
        if (res.ok) return ((await res.json()) as { members: Member[] }).members;
      } catch {
        // frozen or down: ask the other
      }
    }
    return [];
  }

  async leader(): Promise<NodeName | undefined> {
    return (await this.members()).find((m) => m.role === 'leader' && m.state === 'running')?.name;
  }

  other(node: NodeName): NodeName {
    return node === 'node1' ? 'node2' : 'node1';
  }

  /** Waits until `node` streams from the leader as its synchronous standby again (a rejoin). */
  async waitForSyncStandby(node: NodeName, timeoutMs = 90_000): Promise<void> {
    await waitFor(
      async () =>
        (await this.members()).some(
          (m) => m.name === node && m.role === 'sync_standby' && m.state === 'running',
        ),
      `${node} to stream as synchronous standby`,
      timeoutMs,
    );
  }

  private postmaster(node: NodeName): number {
    return Number(readFileSync(join(this.dir, node, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /** A crash of the node's PostgreSQL: its postmaster SIGKILLed (its Patroni lives on). */
  killPostgres(node: NodeName): void {
    process.kill(this.postmaster(node), 'SIGKILL');
  }

  /** Every process of the node (its Patroni, its PostgreSQL), as a machine that froze would stop. */
  nodeProcesses(node: NodeName): number[] {
    return processTree([Number(readFileSync(join(this.dir, `${node}.pid`), 'utf8')), this.postmaster(node)]);
  }

  /** SIGSTOP (or SIGCONT) every process of the node: its sockets stay open and silent. */
  signalNode(node: NodeName, signal: 'SIGSTOP' | 'SIGCONT'): void {
    signalAll(this.nodeProcesses(node), signal);
  }

  /** A planned switchover through Patroni's REST API; resolves once Patroni says it is done. */
  async switchover(from: NodeName, to: NodeName): Promise<void> {
    const res = await fetch(this.rest(from, '/switchover'), {
      method: 'POST',
      body: JSON.stringify({ leader: from, candidate: to }),
    });
    if (!res.ok) throw new Error(`switchover refused: ${res.status} ${await res.text()}`);
  }

  /**
   * PostgreSQL settings changed on every node through Patroni's dynamic configuration (as
   * `patronictl edit-config` would); resolves once both nodes run with them.
   */
  async setParameters(parameters: Record<string, string>): Promise<void> {
    const res = await fetch(this.rest('node1', '/config'), {
      method: 'PATCH',
      body: JSON.stringify({ postgresql: { parameters } }),
    });
    if (!res.ok) throw new Error(`Patroni refused the settings: ${res.status} ${await res.text()}`);
    await waitFor(
      async () => {
        for (const node of NODES)
          for (const [name, value] of Object.entries(parameters)) {
            const [row] = await this.query<{ setting: string }>(
              'SELECT setting FROM pg_settings WHERE name = $1',
              [name],
              this.nodeUrl(node),
            );
            if (row.setting !== value) return false;
          }
        return true;
      },
      'the nodes to run with the new settings',
      30_000,
    );
  }

  /** Plain SQL on `url` (the leader through HAProxy by default): the rows. */
  async query<T>(text: string, values: unknown[] = [], url = this.databaseUrl): Promise<T[]> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** deploy/ha/backup: a base backup of the leader; its directory. */
  async backup(): Promise<string> {
    const { stdout } = await run(join(DEPLOY, 'backup'), [this.dir], { timeout: 120_000 });
    return stdout.trim().split('\n').pop()!;
  }

  /**
   * deploy/ha/restore: `backup` with the archived WAL up to `targetTime`, started as a standalone
   * server with its data in `dataDir`; its URL (with the topology's password). The caller stops it.
   */
  async restore(backup: string, targetTime: string, dataDir: string): Promise<string> {
    const { stdout } = await run(
      join(DEPLOY, 'restore'),
      [backup, join(this.dir, 'wal-archive'), targetTime, dataDir],
      { timeout: 180_000 },
    );
    const url = new URL(stdout.trim().split('\n').pop()!);
    url.password = this.env.HA_PASSWORD;
    return url.toString();
  }

  async stop(): Promise<void> {
    await run(join(DEPLOY, 'stop'), [this.dir], { timeout: 60_000 });
  }
}
