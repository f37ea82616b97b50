import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { recordedQueries } from '../helpers/recorded-queries';

/**
 * docs/queries/<module>.sql shows a reviewer the statements each repository sends, assembled
 * (docs/architecture.md, "Table owners"). `npm run queries` writes them (WRITE_QUERIES=1); here
 * they must match what the code sends now.
 */
const DIR = resolve(__dirname, '../../docs/queries');

let files: Record<string, string>;
beforeAll(async () => {
  files = await recordedQueries();
  if (process.env.WRITE_QUERIES) {
    mkdirSync(DIR, { recursive: true });
    for (const f of readdirSync(DIR))
      if (!(f in files)) throw new Error(`docs/queries/${f} has no module: remove it`);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(DIR, name), text);
  }
});

it('has a current file per module, and no other (run `npm run queries` after changing a statement)', () => {
  expect(readdirSync(DIR).sort()).toEqual(Object.keys(files).sort());
  for (const [name, text] of Object.entries(files))
    expect({ file: `docs/queries/${name}`, text: readFileSync(join(DIR, name), 'utf8') }).toEqual({
      file: `docs/queries/${name}`,
      text,
    });
});

it('shows the settling statement with the checkout and billing extensions assembled in it', () => {
  const payments = files['payments.sql'];
  const settle = payments.slice(payments.indexOf('-- pay: settleStatement'));
  expect(settle).toContain('UPDATE payments');
  expect(settle).toContain('checkout_completed AS (');
  expect(settle).toContain('billing_invoice_paid AS (');
  expect(settle).toContain('ledger_payment AS (');
  expect(settle).not.toMatch(/\$\{/);
});

it('records a statement for every method that sends one', () => {
  const silent = Object.values(files).flatMap((text) =>
    [...text.matchAll(/^-- (.+): no statement$/gm)].map((m) => m[1]),
  );
  expect(silent).toEqual([]);
});
