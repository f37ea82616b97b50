import autocannon from 'autocannon';
import { createPool } from '../src/database/database.module';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { fmt, load, Measure } from './measure';

/**
 * Pay (sandbox Masrivi, the bank answers at once): every request pays a fresh unpaid payment
 * request with the publishable key. Compared with the create ceiling (a bare server's single
 * insert), since pay does strictly more: two transactions around the bank call.
 */
export async function payScenario(
  port: number,
  barePort: number,
  url: string,
  org: CreatedOrganization,
  ceiling: Measure,
): Promise<void> {
  const ds = createPool(url, 2);
  const total = 120_000;
  await ds.query(
    `INSERT INTO payment_requests (id, environment_id, transaction_id, amount)
     SELECT gen_random_uuid(), $1, 'pay-' || i, 1500 FROM generate_series(1, $2) i`,
    [org.sandbox.environmentId, total],
  );
  const {
    rows: [{ id: methodId }],
  } = await ds.query(`SELECT id FROM payment_methods WHERE environment_id = $1 AND type = 'masrivi'`, [
    org.sandbox.environmentId,
  ]);
  await ds.end();
  let next = 0;
  const pay: autocannon.Request = {
    method: 'POST',
    path: '/api/v1/payment',
    headers: { authorization: org.sandbox.publishableKey, 'content-type': 'application/json' },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({
        transactionId: `pay-${++next}`,
        phoneNumber: '22222222',
        passCode: '',
        configurationId: methodId,
      }),
    }),
  };
  await load(port, pay, 2);
  const m = await load(port, pay);
  await load(barePort, pay, 2);
  const b = await load(barePort, pay);
  if (next > total) throw new Error('pay scenario ran out of payment requests: raise its total');
  const ratio = m.rps / ceiling.rps;
  process.stdout.write(
    `POST /payment (sandbox, bank answers at once)\n  khoums  ${fmt(m)}\n  bare    ${fmt(b)}   (the same four statements)\n` +
      `  ratio   ${ratio.toFixed(2)} of the create ceiling (target >= 0.50: ${ratio >= 0.5 ? 'met' : 'NOT met'}),` +
      ` ${(m.rps / b.rps).toFixed(2)} of a bare server's pay\n\n`,
  );
}
