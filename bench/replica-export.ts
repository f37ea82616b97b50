import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { runMigrations } from '../src/database/data-source';
import { OrganizationsService } from '../src/organizations/organizations.service';
import { HaTopology, NodeName } from '../test/helpers/ha-topology';
import { processTree } from '../test/helpers/processes';

/**
 * The read replica taking the CSV exports off the leader (docs/operations.md, "Read replica"): on
 * deploy/ha's topology, an environment of BENCH_LEDGER_ROWS (1,000,000) balance transactions is
 * exported as CSV (`GET /balance-transactions`, Accept: text/csv) by a Khoums without and then with
 * DATABASE_READ_URL, and the CPU time each PostgreSQL node spends meanwhile is read from /proc
 * (its processes', with the exited backends' counted in the postmaster's children's times).
 *
 *   node test/webhooks/fixtures/run-ts.js bench/replica-export.ts
 */

const ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
const TICKS_PER_SECOND = 100;

function postmasterOf(ha: HaTopology, node: NodeName): number {
  return Number(readFileSync(join(ha.dir, node, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** CPU seconds the node's PostgreSQL has used so far (live processes, and the children it reaped). */
function cpuSeconds(ha: HaTopology, node: NodeName): number {
  const postmaster = postmasterOf(ha, node);
  let ticks = 0;
  for (const pid of processTree([postmaster])) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime, stime are fields 14 and 15 of stat (11 and 12 after "pid (comm) "); cutime, cstime 13 and 14.
      ticks += Number(fields[11]) + Number(fields[12]);
      if (pid === postmaster) ticks += Number(fields[13]) + Number(fields[14]);
    } catch {
      // exited meanwhile: its time is in the postmaster's children's times
    }
  }
  return ticks / TICKS_PER_SECOND;
}

async function seed(url: string, environmentId: string, organizationId: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`SET session_replication_role = replica`);
    const chunk = 250_000;
    for (let from = 1; from <= ROWS; from += chunk)
      await c.query(
        `INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, environment_id,
                                           organization_id, created_at)
         SELECT gen_random_uuid(), 'payment', 1500, 15, 1485, gen_random_uuid(), at + interval '1 day', $1, $2, at
           FROM generate_series($3::int, $4::int) i,
                LATERAL (SELECT now() - ($5::int - i) * (interval '365 days' / $5::int) AS at) x`,
        [environmentId, organizationId, from, Math.min(ROWS, from + chunk - 1), ROWS],
      );
    await c.query('ANALYZE balance_transactions');
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const ha = await HaTopology.start();
  try {
    await runMigrations(ha.databaseUrl);
    const env = {
      DEMO_ORG: 'false',
      DOCUMENTS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
    };
    const quiet = new Writable({ write: (_c, _e, cb) => cb() });
    const app = (extra: Record<string, string>) =>
      createApp({ config: loadConfig({ ...env, ...extra }), databaseUrl: ha.databaseUrl, logStream: quiet });

    const setup = await app({});
    const org = await setup
      .get(OrganizationsService)
      .create({ name: 'Export', email: 'export@khoums.local' });
    await setup.close();
    const t0 = Date.now();
    await seed(ha.databaseUrl, org.production.environmentId, org.organizationId);
    process.stdout.write(
      `${ROWS.toLocaleString('en')} balance transactions loaded in ${(Date.now() - t0) / 1000} s\n`,
    );

    const leader = (await ha.leader())!;
    const replica = ha.other(leader);
    await ha.waitForSyncStandby(replica);
    for (const [label, extra] of [
      ['without DATABASE_READ_URL', {}],
      ['with DATABASE_READ_URL', { DATABASE_READ_URL: ha.readUrl }],
    ] as const) {
      const khoums = await app(extra);
      await khoums.listen(0, '127.0.0.1');
      const port = (khoums.getHttpServer().address() as { port: number }).port;
      const before = { leader: cpuSeconds(ha, leader), replica: cpuSeconds(ha, replica) };
      const started = Date.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/balance-transactions`, {
        headers: { authorization: org.production.secretKey, accept: 'text/csv' },
      });
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        for (const b of chunk) if (b === 10) lines += 1;
      const seconds = (Date.now() - started) / 1000;
      const used = {
        leader: cpuSeconds(ha, leader) - before.leader,
        replica: cpuSeconds(ha, replica) - before.replica,
      };
      process.stdout.write(
        `${label}: ${res.status}, ${(lines - 1).toLocaleString('en')} rows in ${seconds.toFixed(1)} s;` +
          ` leader PostgreSQL ${used.leader.toFixed(1)} CPU s (${((100 * used.leader) / seconds).toFixed(0)} % of a core),` +
          ` replica ${used.replica.toFixed(1)} CPU s\n`,
      );
      await khoums.close();
    }
  } finally {
    await ha.stop();
  }
}

main().catch((err) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err) + '\n');
  process.exit(1);
});
