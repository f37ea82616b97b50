import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * What the library's types allow, checked by compiling merchant code against sdk/src with the
 * TypeScript compiler (strict): the typed checkout-session create (its required fields), the
 * typed webhook events, list iterators.
 */

const SDK = resolve(__dirname, '../../sdk');
const DIR = join(SDK, '__type-tests__');

/** The errors of each snippet, compiled together against the library. */
function compile(snippets: Record<string, string>): Record<string, string[]> {
  const files = Object.fromEntries(
    Object.entries(snippets).map(([name, code]) => [
      join(DIR, `${name}.ts`),
      `import { Khoums, constructEvent } from '../src';\nconst k = new Khoums('sk_test_x');\nconst urls = { successUrl: 'https://a.example', cancelUrl: 'https://b.example', expiresInMinutes: 30 };\nexport async function run(): Promise<unknown> {\n${code}\n}\n`,
    ]),
  );
  const config = ts.readConfigFile(join(SDK, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, SDK).options;
  const options = { ...parsed, noEmit: true, rootDir: SDK, declaration: false, emitDeclarationOnly: false };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) =>
    name in files ? ts.createSourceFile(name, files[name], version) : getSourceFile(name, version);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name in files || fileExists(name);
  const program = ts.createProgram(Object.keys(files), options, host);
  const errors: Record<string, string[]> = Object.fromEntries(Object.keys(snippets).map((n) => [n, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file && Object.keys(snippets).find((n) => d.file!.fileName === join(DIR, `${n}.ts`));
    if (!name)
      throw new Error(`outside the snippets: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    errors[name].push(ts.flattenDiagnosticMessageText(d.messageText, ' '));
  }
  return errors;
}

/** The first TypeScript example under a heading of sdk/README.md. */
function readmeExample(heading: string): string {
  const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`no example under ${heading}`);
  return match[1];
}

let errors: Record<string, string[]>;

beforeAll(() => {
  errors = compile({
    checkoutByTransaction: `return k.checkoutSessions.create({ transactionId: 'o1', amount: 100, phoneNumber: '22123456', ...urls });`,
    checkoutByRequest: `return k.checkoutSessions.create({ paymentRequestId: 'id', ...urls });`,
    checkoutWithoutSuccessUrl: `return k.checkoutSessions.create({ transactionId: 'o1', phoneNumber: '22123456', cancelUrl: 'x', expiresInMinutes: 30 });`,
    checkoutWithoutCancelUrl: `return k.checkoutSessions.create({ paymentRequestId: 'id', successUrl: 'x', expiresInMinutes: 30 });`,
    checkoutWithoutExpiry: `return k.checkoutSessions.create({ paymentRequestId: 'id', successUrl: 'x', cancelUrl: 'y' });`,
    checkoutTransactionWithoutPhone: `return k.checkoutSessions.create({ transactionId: 'o1', amount: 100, ...urls });`,
    checkoutBothIds: `return k.checkoutSessions.create({ paymentRequestId: 'id', transactionId: 'o1', phoneNumber: '22123456', ...urls });`,
    payWithoutMethod: `return k.payments.pay({ transactionId: 'o1', phoneNumber: '22123456' });`,
    createWithStringAmount: `return k.paymentRequests.create({ transactionId: 'o1', amount: '100' });`,
    typedEvents: `
      const e = await constructEvent('{}', {}, 'whsec_x');
      if (e.event === 'payment-updated') { const s: 'pending' | 'completed' | 'failed' = e.data.status; const t: string = e.data.request.transactionId; return [s, t]; }
      if (e.event === 'payment-request-created') { const a: number = e.data.amount; return a; }
      return e.data.id;`,
    wrongEventData: `
      const e = await constructEvent('{}', {}, 'whsec_x');
      if (e.event === 'payment-request-created') return e.data.request;
      return null;`,
    iterateList: `
      const ids: string[] = [];
      for await (const pr of k.paymentRequests.list({ status: 'paid' })) ids.push(pr.transactionId);
      const page = await k.payments.list({ limit: 5 });
      return [ids, page.pagination.totalPages, page.data[0]?.configurationId];`,
    listWithUnknownStatus: `return k.paymentRequests.list({ status: 'refunded' });`,
    billingRecords: `
      const sub = await k.subscriptions.get('id');
      const started: string = sub.startedAt; // never null
      const overdue: boolean = sub.status === 'past_due'; // computed by the service when read
      const invoice = await k.invoices.get('id');
      const subscriptionId: string = invoice.subscriptionId;
      const pages = k.subscriptions.list({ status: 'past_due' });
      return [started, overdue, subscriptionId, pages];`,
    typedErrors: `
      type E = import('../src').ErrorsOf<'POST /payment'>;
      const conflict: E[409] = 'Payment request is already paid';
      const unavailable: E[503] = 'Service unavailable';
      const invalid: E[422] = { type: 'validation', on: 'body', property: '/amount', message: 'm', summary: 's', expected: {}, found: 1, errors: [] };
      const message: import('../src').ApiErrorMessage = 'Payment request is void: its invoice was voided';
      const code: import('../src').AppException['code'] = message;
      return [conflict, unavailable, invalid, code];`,
    wrongErrorMessage: `
      const m: import('../src').ErrorMessageOf<'POST /payment', 409> = 'Payment Request not found';
      return m;`,
    undeclaredErrorStatus: `
      const m: import('../src').ErrorsOf<'GET /payment-methods'>[409] = 'Payment request is already paid';
      return m;`,
    readmeSubscriptions: `
      const khoums = k;
      const user = { id: 'user_1', phone: '22123456' };
      const notify = (to: typeof user, url: string) => [to, url];
      ${readmeExample('## Subscriptions')}
      return hasAccess;`,
  });
});

describe('the typed checkout-session create requires successUrl, cancelUrl, expiresInMinutes and phoneNumber with a transactionId', () => {
  it('accepts a transactionId with phoneNumber, or a paymentRequestId, each with successUrl, cancelUrl and expiresInMinutes', () => {
    expect(errors.checkoutByTransaction).toEqual([]);
    expect(errors.checkoutByRequest).toEqual([]);
  });

  it.each([
    ['checkoutWithoutSuccessUrl', /Property 'successUrl' is missing/],
    ['checkoutWithoutCancelUrl', /Property 'cancelUrl' is missing/],
    ['checkoutWithoutExpiry', /Property 'expiresInMinutes' is missing/],
    ['checkoutTransactionWithoutPhone', /Property 'phoneNumber' is missing/],
    ['checkoutBothIds', /Types of property 'transactionId' are incompatible/],
  ])('refuses %s', (name, error) => {
    expect(errors[name].join()).toMatch(error);
  });
});

describe('other types', () => {
  it('pay needs a paymentMethodId; amounts are numbers; list filters are the API enums', () => {
    expect(errors.payWithoutMethod.join()).toMatch(/paymentMethodId/);
    expect(errors.createWithStringAmount.join()).toMatch(/not assignable to type 'number'/);
    expect(errors.listWithUnknownStatus.join()).toMatch(/"refunded"/);
  });

  it("constructEvent's union narrows data by event kind", () => {
    expect(errors.typedEvents).toEqual([]);
    expect(errors.wrongEventData.join()).toMatch(/Property 'request' does not exist/);
  });

  it('a list is a page when awaited and an async iterable of items', () => {
    expect(errors.iterateList).toEqual([]);
  });

  it("billing records as the service sends them: a subscription's startedAt is a string, past_due a status, an invoice's subscriptionId", () => {
    expect(errors.billingRecords).toEqual([]);
  });

  it('error answers are typed per route and status as the OpenAPI document declares them (exact messages, the validation body)', () => {
    expect(errors.typedErrors).toEqual([]);
    expect(errors.wrongErrorMessage.join()).toMatch(/"Payment Request not found"' is not assignable/);
    expect(errors.undeclaredErrorStatus.join()).toMatch(/Property '409' does not exist/);
  });

  it("the README's subscriptions example compiles against the library's types", () => {
    expect(errors.readmeSubscriptions).toEqual([]);
  });
});
