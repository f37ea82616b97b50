import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { databaseEnv, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { buildDist } from '../helpers/build';
import { approvedAccount, earn, FAILING_IBAN, payableTenant, postPayout } from '../helpers/payouts';

/**
 * The ledger check (`npm run cli -- ledger:check`) over payouts: every payout has its one `payout`
 * transaction of minus its amount, a failed one its `payout_failure`, and what is linked to a
 * payout agrees with it. Run as an operator runs it (the built CLI), on a database of its own so
 * that its exit status speaks of this file's money only; each difference is made by hand in a
 * fresh tenant, and the check names it and exits 1.
 */
const ROOT = resolve(__dirname, '../..');
jest.setTimeout(180_000);

let t: TestApp;
let db: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  buildDist();
  db = await privateDatabase();
  t = await startTestApp({ PAYOUT_DELAY_DAYS: '0' }, db.url);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

type Problem = { kind: string; id: string | null; detail: string };

function ledgerCheck(): {
  status: number;
  json: { ok: boolean; environments: Array<{ environmentId: string; problems: Problem[] }> };
} {
  let stdout: string;
  let status = 0;
  try {
    stdout = execFileSync(process.execPath, ['dist/src/cli/main.js', 'ledger:check', '--json'], {
      cwd: ROOT,
      env: { ...process.env, ...databaseEnv(db.url), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
  } catch (e) {
    const err = e as { stdout: Buffer; status: number };
    stdout = err.stdout.toString();
    status = err.status;
  }
  return { status, json: JSON.parse(stdout) };
}

const problemsOf = (json: ReturnType<typeof ledgerCheck>['json'], org: CreatedOrganization) =>
  (json.environments.find((e) => e.environmentId === org.sandbox.environmentId)?.problems ?? [])
    .map((p) => [p.kind, p.id])
    .sort();

/**
 * A tenant with a payout of its whole balance (paid, the payments linked), one of part of it, and
 * a failed one whose money came back: the ids of the whole one and the failed one.
 */
async function tenantWithPayouts(): Promise<{ org: CreatedOrganization; paid: string; failed: string }> {
  const org = await payableTenant(t, FAILING_IBAN);
  const key = org.sandbox.secretKey;
  await earn(t, key, 3000, 2000);
  const failed = (await postPayout(t, key).expect(200)).body.data;
  expect(failed).toMatchObject({ status: 'failed', amount: 5000 });
  await approvedAccount(t, org.organizationId);
  expect((await postPayout(t, key, { amount: 1000 }).expect(200)).body.data.status).toBe('paid');
  const paid = (await postPayout(t, key).expect(200)).body.data;
  expect(paid).toMatchObject({ status: 'paid', amount: 4000 });
  return { org, paid: paid.id as string, failed: failed.id as string };
}

describe('npm run cli -- ledger:check --json over payouts', () => {
  it('finds paid, partial and failed payouts in agreement with their transactions, and exits 0', async () => {
    const { org } = await tenantWithPayouts();
    const { status, json } = ledgerCheck();
    expect(problemsOf(json, org)).toEqual([]);
    expect(json.ok).toBe(true);
    expect(status).toBe(0);
  });

  it("exits 1 on a payout whose amount differs from its `payout` transaction's", async () => {
    const { org, paid } = await tenantWithPayouts();
    await t.query(`UPDATE payouts SET amount = amount + 1 WHERE id = $1`, [paid]);
    const { status, json } = ledgerCheck();
    expect(status).toBe(1);
    expect(json.ok).toBe(false);
    expect(problemsOf(json, org)).toEqual([['payout_transactions_differ', paid]]);
    await t.query(`UPDATE payouts SET amount = amount - 1 WHERE id = $1`, [paid]);
    expect(ledgerCheck().status).toBe(0);
  });

  it('exits 1 on a failed payout without its `payout_failure` (and the balance out of step)', async () => {
    const { org, failed } = await tenantWithPayouts();
    await t.query(`DELETE FROM balance_transactions WHERE source_id = $1 AND type = 'payout_failure'`, [
      failed,
    ]);
    const { status, json } = ledgerCheck();
    expect(status).toBe(1);
    expect(problemsOf(json, org)).toEqual([
      ['balance_differs', null],
      ['payout_transactions_differ', failed],
    ]);
    const detail = json.environments
      .find((e) => e.environmentId === org.sandbox.environmentId)!
      .problems.find((p) => p.kind === 'payout_transactions_differ')!.detail;
    expect(detail).toBe('payout of 5000 (failed): debited -5000 in 1, credited back 0 in 0');
    await t.query(`DELETE FROM payouts WHERE environment_id = $1`, [org.sandbox.environmentId]);
    await t.query(`DELETE FROM balance_transactions WHERE environment_id = $1`, [org.sandbox.environmentId]);
    await t.query(`DELETE FROM balance_days WHERE environment_id = $1`, [org.sandbox.environmentId]);
  });

  it('exits 1 on a payment linked to a failed payout, and on payout transactions whose payout is gone', async () => {
    const { org, paid, failed } = await tenantWithPayouts();
    await t.query(
      `UPDATE balance_transactions SET payout_id = $1
        WHERE id = (SELECT id FROM balance_transactions WHERE payout_id = $2 AND type = 'payment' LIMIT 1)`,
      [failed, paid],
    );
    let { status, json } = ledgerCheck();
    expect(status).toBe(1);
    expect(problemsOf(json, org)).toEqual([['payout_links_differ', failed]]);

    await t.query(`DELETE FROM payouts WHERE id = $1`, [paid]);
    ({ status, json } = ledgerCheck());
    expect(status).toBe(1);
    expect(problemsOf(json, org)).toEqual([
      ['payout_links_differ', failed],
      ['payout_links_differ', paid],
      ['payout_transaction_without_payout', paid],
    ]);
  });
});
