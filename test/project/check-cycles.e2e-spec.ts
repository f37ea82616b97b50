import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** `npm run lint`'s check of import cycles between files (scripts/check-cycles.mjs) on trees made for the purpose. */
const SCRIPT = resolve(__dirname, '../../scripts/check-cycles.mjs');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'khoums-cycles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const check = (root: string) => spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });

it('passes the project itself: no import circle between the files of src/', () => {
  const r = check(resolve(__dirname, '../../src'));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it('passes imports that never come back, and ignores spec files', () => {
  const r = check(
    tree({
      'payments/settlement-types.ts': 'export type Settlement = string;',
      'payments/pay.statements.ts': "import type { Settlement } from './settlement-types';",
      'payments/settlement.ts':
        "import type { Settlement } from './settlement-types';\nimport { x } from './pay.statements';",
      'payments/settlement.spec.ts': "import { y } from './settlement';",
      'payments/pay.statements.spec.ts': "import { z } from './settlement.spec';",
    }),
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it('fails on a circle of three files in one folder, type-only imports included, and names its imports', () => {
  const r = check(
    tree({
      'payments/settlement.ts':
        "import { settleStatement } from './pay.statements';\nimport { PaymentsRepository } from './payments.repository';",
      'payments/pay.statements.ts': "import type { Settlement } from './settlement';",
      'payments/payments.repository.ts': "import { openStatement } from './pay.statements';",
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(
    'import cycle among files: payments/pay.statements.ts, payments/payments.repository.ts, payments/settlement.ts',
  );
  expect(r.stderr).toContain('payments/pay.statements.ts imports payments/settlement.ts');
  expect(r.stderr).toContain('payments/settlement.ts imports payments/pay.statements.ts');
  expect(r.stderr).toContain('payments/payments.repository.ts imports payments/pay.statements.ts');
});

it('fails on a circle between files of two folders, through an index file', () => {
  const r = check(
    tree({
      'organizations/account.ts': "import type { Tenant } from './tenant';",
      'organizations/tenant.ts': "import { Scope } from '../auth';",
      'auth/index.ts': "import type { VerificationStatus } from '../organizations/account';",
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(
    'import cycle among files: auth/index.ts, organizations/account.ts, organizations/tenant.ts',
  );
});
