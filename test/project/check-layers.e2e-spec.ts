import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** `npm run lint`'s module-graph check (scripts/check-layers.mjs) on trees made for the purpose. */
const SCRIPT = resolve(__dirname, '../../scripts/check-layers.mjs');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'khoums-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const check = (root: string) => spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });

it('passes the project itself', () => {
  const r = check(resolve(__dirname, '../../src'));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it('passes imports that point down the layers', () => {
  const r = check(
    tree({
      'payments/pay.ts': "import { x } from '../payment-requests/pr';\nimport { y } from '../common/y';",
      'payment-requests/pr.ts': "import { y } from '../common/y';\nexport const x = y;",
      'common/y.ts': 'export const y = 1;',
    }),
  );
  expect(r.status).toBe(0);
});

it('fails on an import that points up a layer', () => {
  const r = check(
    tree({
      'payment-requests/pr.ts': "import { pay } from '../payments/pay';",
      'payments/pay.ts': 'export const pay = 1;',
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('payment-requests (layer 5) must not import payments (layer 6)');
});

it('fails on a cycle between two folders of one layer', () => {
  const r = check(
    tree({
      'common/a.ts': "import { b } from '../config/b';\nexport const a = 1;",
      'config/b.ts': "import { a } from '../common/a';\nexport const b = a;",
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('import cycle among common, config');
});

it('fails on a folder without a layer', () => {
  const r = check(
    tree({ 'reports/r.ts': "import { y } from '../common/y';", 'common/y.ts': 'export const y = 1;' }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('src/reports/ is not in LAYERS');
});

it('fails on a controller that imports a repository, in any folder', () => {
  const r = check(
    tree({
      'dashboard/customers.controller.ts':
        "import { CustomersService } from '../customers/customers.service';\nimport { CustomersRepository } from '../customers/customers.repository';",
      'admin/console/audit.controller.ts':
        "import {\n  AuditLogRepository,\n} from '../audit-log.repository';",
      'customers/customers.service.ts': "import { CustomersRepository } from './customers.repository';",
      'customers/customers.repository.ts': 'export class CustomersRepository {}',
      'admin/audit-log.repository.ts': 'export class AuditLogRepository {}',
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(
    'dashboard/customers.controller.ts imports ../customers/customers.repository: a controller never touches a repository',
  );
  expect(r.stderr).toContain('admin/console/audit.controller.ts imports ../audit-log.repository');
  expect(r.stderr).not.toContain('customers.service.ts imports');
});

it("passes a controller's `import type` of a repository's row", () => {
  const r = check(
    tree({
      'dashboard/customers.controller.ts':
        "import type { Customer } from '../customers/customers.repository';\nimport { CustomersService } from '../customers/customers.service';",
      'customers/customers.service.ts': "import { CustomersRepository } from './customers.repository';",
      'customers/customers.repository.ts':
        'export interface Customer { id: string }\nexport class CustomersRepository {}',
    }),
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});
