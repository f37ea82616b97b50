import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** `npm run lint`'s table-owner check (scripts/check-table-owners.mjs) on trees made for the purpose. */
const SCRIPT = resolve(__dirname, '../../scripts/check-table-owners.mjs');

const OWNERS = `# How the code is built

### Table owners

| table | owner |
|---|---|
| \`payment_requests\` | \`payment-requests\` |
| \`payments\` | \`payments\` |
| \`events\` | \`webhooks\` |

## Errors
`;

const MIGRATION = `export class M { up = 'CREATE TABLE payment_requests (); CREATE TABLE payments (); CREATE TABLE events ();'; }`;

function tree(files: Record<string, string>, owners = OWNERS): { src: string; doc: string } {
  const root = mkdtempSync(join(tmpdir(), 'khoums-owners-'));
  const all = {
    'src/database/migrations/1-m.ts': MIGRATION,
    'src/payment-requests/payment-request.ts': '',
    'src/payments/payment.ts': '',
    'src/webhooks/webhook.ts': '',
    'docs/architecture.md': owners,
    ...Object.fromEntries(Object.entries(files).map(([path, text]) => [`src/${path}`, text])),
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { src: join(root, 'src'), doc: join(root, 'docs/architecture.md') };
}

const check = (t: { src: string; doc: string }) =>
  spawnSync(process.execPath, [SCRIPT, t.src, t.doc], { encoding: 'utf8' });

it('passes the project itself', () => {
  const r = check({
    src: resolve(__dirname, '../../src'),
    doc: resolve(__dirname, '../../docs/architecture.md'),
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it("passes a module's SQL on its own tables composing a fragment another module's repository exports", () => {
  const r = check(
    tree({
      'payment-requests/r.ts':
        'const a = sql`UPDATE payment_requests SET status = ${s} WHERE id = ${id}`;\nexport const rows = (alias) => raw(`payment_requests ${alias}`);',
      'payments/r.ts':
        "const a = sql`INSERT INTO payments (id) VALUES (${id})`;\nconst b = sql`FROM payments p JOIN ${rows('pr')} ON pr.id = p.payment_request_id`;",
      'webhooks/outbox.ts': 'export const e = sql`INSERT INTO events (id) VALUES (${id})`;',
    }),
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it("fails on a write to another module's table", () => {
  const r = check(
    tree({
      'payments/r.ts':
        'const a = sql`WITH x AS (SELECT 1)\n  UPDATE payment_requests SET status = ${"paid"}`;',
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(
    'src/payments/r.ts:2: UPDATE payment_requests: only payment-requests writes it; use a fragment its repository exports',
  );
});

it("fails on a join to another module's table", () => {
  const r = check(
    tree({
      'payments/r.ts':
        "const b = raw('FROM payments p JOIN payment_requests pr ON pr.id = p.payment_request_id');",
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(
    "src/payments/r.ts:1: JOIN payment_requests (owned by payment-requests): ask payment-requests's repository or compose its fragment",
  );
});

it('fails on a list that names other readers of a table', () => {
  const r = check(
    tree(
      {},
      OWNERS.replace(
        '| `payment_requests` | `payment-requests` |',
        '| `payment_requests` | `payment-requests` | `payments` |',
      ),
    ),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(
    'the line of payment_requests names other readers (`payments`): only its owner, payment-requests, reads it',
  );
});

it('fails on an event written by hand outside the outbox module', () => {
  const r = check(
    tree({
      'payments/r.ts': 'const e = sql`SELECT ${sql`x`} FROM a; INSERT INTO events (id) VALUES (${id})`;',
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('src/payments/r.ts:1: INSERT INTO events: only webhooks writes it');
});

it("fails on a read of another module's table, the dashboard's included", () => {
  const r = check(
    tree({
      'dashboard/dashboard.repository.ts':
        "const q = sql`SELECT count(*) FROM payments p WHERE p.id = ${'x'}`;",
    }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(
    "src/dashboard/dashboard.repository.ts:1: FROM payments (owned by payments): ask payments's repository",
  );
});

it('ignores comments, and names of tables outside SQL keywords', () => {
  const r = check(
    tree({
      'dashboard/d.ts':
        '// SELECT * FROM payments\n/* JOIN payments */\nconst label = `payments and payment_requests`;',
    }),
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

it('fails on a table of the migrations that has no owner', () => {
  const r = check(
    tree({ 'database/migrations/2-n.ts': "export const up = 'CREATE TABLE refunds (id uuid);';" }),
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('table refunds (src/database/migrations/2-n.ts) has no owner in the list');
});

it('fails on an owner that is not a module', () => {
  const r = check(tree({}, OWNERS.replace('| `events` | `webhooks` |', '| `events` | `outbox` |')));
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('the owner of events, outbox, is not a folder of src/');
});

it('fails without the list', () => {
  const r = check(tree({}, '# How the code is built\n'));
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('has no "### Table owners" table');
});
