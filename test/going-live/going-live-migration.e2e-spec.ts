import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '../../src/database/data-source';
import { GoingLive1763778000000 } from '../../src/database/migrations/1763778000000-GoingLive';
import { emptyDatabase, migrateUpTo } from '../helpers/app';

/*
 * Existing data when verification arrives (docs/going-live.md): an organization that already
 * completed a Production payment stays live (`verified`); the others start `unverified`.
 */
jest.setTimeout(60_000);

let url: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ url, drop } = await emptyDatabase());
});
afterAll(() => drop());

it('marks organizations with a completed Production payment verified, the others unverified', async () => {
  await migrateUpTo(url, GoingLive1763778000000);

  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    /** An organization with a payment of `status` in its `kind` environment (or none). */
    const organization = async (payment?: { kind: 'sandbox' | 'production'; status: string }) => {
      const id = randomUUID();
      await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'Old shop')`, [id]);
      const environments: Record<string, string> = {};
      for (const kind of ['sandbox', 'production']) {
        environments[kind] = randomUUID();
        await db.query(`INSERT INTO environments (id, organization_id, kind) VALUES ($1, $2, $3)`, [
          environments[kind],
          id,
          kind,
        ]);
      }
      if (payment) {
        const environmentId = environments[payment.kind];
        const request = randomUUID();
        await db.query(
          `INSERT INTO payment_requests (id, environment_id, transaction_id, amount) VALUES ($1, $2, 'old-1', 100)`,
          [request, environmentId],
        );
        const [method] = (
          await db.query(
            `INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code)
                          VALUES ($1, 'masrivi', 'Masrivi', false, 'masrivi') RETURNING id`,
            [environmentId],
          )
        ).rows;
        await db.query(
          `INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                                 status, completed_at, next_check_at)
           VALUES ($1, $2, $3, $4, 100, '22123456', $5, CASE WHEN $5 = 'completed' THEN now() END, now())`,
          [randomUUID(), environmentId, request, method.id, payment.status],
        );
      }
      return id;
    };
    const live = await organization({ kind: 'production', status: 'completed' });
    const failedOnly = await organization({ kind: 'production', status: 'failed' });
    const sandboxOnly = await organization({ kind: 'sandbox', status: 'completed' });
    const idle = await organization();

    await runMigrations(url);

    const rows = (
      await db.query(`SELECT id, verification_status FROM organizations WHERE id = ANY($1::uuid[])`, [
        [live, failedOnly, sandboxOnly, idle],
      ])
    ).rows as { id: string; verification_status: string }[];
    const status = Object.fromEntries(rows.map((r) => [r.id, r.verification_status]));
    expect([status[live], status[failedOnly], status[sandboxOnly], status[idle]]).toEqual([
      'verified',
      'unverified',
      'unverified',
      'unverified',
    ]);
  } finally {
    await db.end();
  }
});
