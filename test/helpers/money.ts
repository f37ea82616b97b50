import type { TestApp } from './app';
import { txId } from './checkout';

/** The id of the environment's Masrivi method (no pass code), for tests that pay. */
export async function masriviOf(t: TestApp, key: string): Promise<string> {
  const res = await t.http.get('/api/v1/payment-methods').set('Authorization', key).expect(200);
  return (res.body.data as { type: string; id: string }[]).find((m) => m.type === 'masrivi')!.id;
}

/** A payment request of `amount`, paid by `phoneNumber` (Sandbox: completed unless a magic number says otherwise). */
export async function paidRequest(
  t: TestApp,
  key: string,
  amount: number,
  phoneNumber = '22222222',
): Promise<{ requestId: string; transactionId: string; payment: Record<string, unknown> }> {
  const transactionId = txId('paid');
  const request = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', key)
    .send({ transactionId, amount })
    .expect(200);
  const configurationId = await masriviOf(t, key);
  const paid = await t.http
    .post('/api/v1/payment')
    .set('Authorization', key)
    .send({ transactionId, phoneNumber, configurationId });
  return { requestId: request.body.data.id, transactionId, payment: paid.body.data };
}

/** Parses a CSV answer (the API's: CRLF lines, RFC 4180 quoting) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}
