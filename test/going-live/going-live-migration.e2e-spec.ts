import { GoingLive1763778000000 } from '../../src/database/migrations/1763778000000-GoingLive';
import { migrationDatabase, oldOrganization, oldPayment } from '../helpers/migrations';

/*
 * Existing data when verification arrives (docs/going-live.md): an organization that already
 * completed a Production payment stays live (`verified`); the others start `unverified`.
 */
jest.setTimeout(60_000);

const m = migrationDatabase(GoingLive1763778000000);

it('marks organizations with a completed Production payment verified, the others unverified', async () => {
  const db = m.db;
  /** An organization with a payment of `status` in its `kind` environment (or none). */
  const organization = async (payment?: { kind: 'sandbox' | 'production'; status: string }) => {
    const o = await oldOrganization(db);
    if (payment) await oldPayment(db, o.environments[payment.kind], { amount: 100, status: payment.status });
    return o.id;
  };
  const live = await organization({ kind: 'production', status: 'completed' });
  const failedOnly = await organization({ kind: 'production', status: 'failed' });
  const sandboxOnly = await organization({ kind: 'sandbox', status: 'completed' });
  const idle = await organization();

  await m.migrateRest();

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
});
