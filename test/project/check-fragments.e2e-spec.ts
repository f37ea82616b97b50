import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** `npm run lint`'s check of the SQL lent between modules (scripts/check-fragments.mjs) on trees made for the purpose. */
const SCRIPT = resolve(__dirname, '../../scripts/check-fragments.mjs');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'khoums-fragments-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const check = (root: string) => spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });

const SQL_TAG =
  'export class Sql {}\nexport const raw = (t: string) => new Sql();\nexport function sql(...a: unknown[]): Sql { return new Sql(); }';

it('passes the project itself', () => {
  const r = check(resolve(__dirname, '../../src'));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it("passes a module that takes another's SQL from its fragments file", () => {
  const r = check(
    tree({
      'database/sql.ts': SQL_TAG,
      'payment-requests/payment-requests.fragments.ts':
        "import { Sql, SqlValue, sql } from '../database/sql';\nexport function transactionIdOf(id: Sql): SqlValue<string> {\n  return sql`(SELECT 1)`;\n}",
      'payments/payments.repository.ts':
        "import { transactionIdOf } from '../payment-requests/payment-requests.fragments';\nexport class PaymentsRepository {}",
    }),
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it('fails on a repository that exports SQL', () => {
  const r = check(
    tree({
      'database/sql.ts': SQL_TAG,
      'payments/payments.repository.ts':
        "import { Sql, sql } from '../database/sql';\nexport function hasPendingPayment(id: Sql): Sql {\n  return sql`EXISTS (SELECT 1)`;\n}\nexport const COMPLETED = raw('x');",
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('payments/payments.repository.ts exports SQL (hasPendingPayment, COMPLETED)');
});

it("fails on a module taking another's SQL from a file other than its fragments", () => {
  const r = check(
    tree({
      'database/sql.ts': SQL_TAG,
      'payments/pay.statements.ts':
        "import { Sql, sql } from '../database/sql';\nexport function openStatement(): Sql {\n  return sql`SELECT 1`;\n}",
      'payments/payments.repository.ts': "import { openStatement } from './pay.statements';",
      'ledger/ledger.repository.ts': "import { openStatement } from '../payments/pay.statements';",
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(
    'ledger/ledger.repository.ts takes SQL (openStatement) from payments/pay.statements.ts',
  );
  expect(r.stderr).not.toContain('payments/payments.repository.ts takes');
});
