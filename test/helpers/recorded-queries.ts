import { billingSettlementCtes } from '../../src/billing/billing.fragments';
import { BillingRepository } from '../../src/billing/billing.repository';
import { RemindersOfInvoices } from '../../src/billing/reminders-of-invoices';
import { completeOpenSessionCtes } from '../../src/checkout/checkout.fragments';
import { AuditLogRepository } from '../../src/admin/audit-log.repository';
import { OperatorsRepository } from '../../src/admin/operators.repository';
import { CheckoutSessionsRepository } from '../../src/checkout/checkout-sessions.repository';
import { AppConfig } from '../../src/config/config';
import { CustomersRepository } from '../../src/customers/customers.repository';
import { DashboardRepository } from '../../src/dashboard/dashboard.repository';
import type { Db } from '../../src/database/db';
import { encodeCursor } from '../../src/database/keyset';
import { ServerSecrets } from '../../src/database/server-secrets.repository';
import { Sql } from '../../src/database/sql';
import { IdempotencyRepository } from '../../src/idempotency/idempotency.repository';
import { RequestKey } from '../../src/idempotency/request-key';
import { InvoiceReminders } from '../../src/invoices/invoice-reminders';
import { InvoiceSubscriptions } from '../../src/invoices/invoice-subscriptions';
import { InvoicesRepository } from '../../src/invoices/invoices.repository';
import { RefundsRepository } from '../../src/ledger/refunds.repository';
import { SettlementReportRepository } from '../../src/ledger/settlement-report.repository';
import { LedgerRepository } from '../../src/ledger/ledger.repository';
import { ledgerSettlementCte, payoutIdOfPayment } from '../../src/ledger/ledger.fragments';
import { LedgerChecks } from '../../src/ledger/ledger-checks';
import { ConnectedAccountsRepository } from '../../src/organizations/connected-accounts.repository';
import { OrganizationsRepository } from '../../src/organizations/organizations.repository';
import { UsersRepository } from '../../src/organizations/users.repository';
import { VerificationRepository } from '../../src/organizations/verification.repository';
import type { PaymentRequest } from '../../src/payment-requests/payment-request';
import { PaymentLinksRepository } from '../../src/payment-links/payment-links.repository';
import { PaymentRequestsRepository } from '../../src/payment-requests/payment-requests.repository';
import {
  keyedStatement,
  lookUpStatement,
  openStatement,
  settleStatement,
} from '../../src/payments/pay.statements';
import type { Payment } from '../../src/payments/payment';
import { PaymentPayouts } from '../../src/payments/payment-payouts';
import { PaymentsRepository } from '../../src/payments/payments.repository';
import { PayoutsRepository } from '../../src/payouts/payouts.repository';
import { payoutLedgerCheck } from '../../src/payouts/payouts.fragments';
import { PriceProducts } from '../../src/prices/price-products';
import { PortalRepository } from '../../src/portal/portal.repository';
import { PricesRepository } from '../../src/prices/prices.repository';
import { ProductsOfPrices } from '../../src/products/products-of-prices';
import { ProductsRepository } from '../../src/products/products.repository';
import { SubscriptionsOfInvoices } from '../../src/subscriptions/subscriptions-of-invoices';
import { SubscriptionsRepository } from '../../src/subscriptions/subscriptions.repository';
import { TransfersRepository } from '../../src/transfers/transfers.repository';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';

/**
 * The SQL each repository sends, as text, for docs/queries/<module>.sql (docs/architecture.md,
 * "Table owners"). Every method of every repository is called once against a Db that records
 * the statements instead of running them, with placeholder arguments: every optional filter
 * present, a row-shaped placeholder for each row read. Values never reach the text (they are `$n`
 * placeholders), so the files change only when a statement does. Pay's statements, which the pay
 * service builds, are built here with the settlement extensions the application registers
 * (checkout's, billing's, then the ledger's), as PostgreSQL receives them.
 */

const PUBLIC_URL = 'https://khoums.example';
const CONFIG = Object.assign(new AppConfig(), { PUBLIC_URL });

interface Recorded {
  name: string;
  statements: { text: string; prepared: boolean }[];
}

/** A list cursor the service could have written: a keyset page shows its condition. */
const AFTER_CURSOR = encodeCursor('2026-01-01T00:00:00.000000Z,00000000-0000-4000-8000-000000000000');

/**
 * A value standing for any argument or row: every property is one, calling it gives one; a keyset
 * page's `after` is a valid cursor (a placeholder there would be refused as not one of ours).
 */
function placeholder(): unknown {
  const target = function () {};
  const proxy: unknown = new Proxy(target, {
    get(_t, prop) {
      if (prop === 'after') return AFTER_CURSOR;
      if (prop === 'before') return undefined;
      if (prop === Symbol.toPrimitive) return () => 'x';
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'then' || prop === 'toJSON') return undefined;
      if (prop === 'length') return 1;
      return proxy;
    },
    apply: () => proxy,
    has: () => true,
  });
  return proxy;
}

class RecordingDb {
  statements: { text: string; prepared: boolean }[] = [];
  readonly inTransaction = false;
  private record(statement: Sql) {
    this.statements.push({ text: statement.compile().text, prepared: statement.prepare });
  }
  async many(statement: Sql) {
    this.record(statement);
    return [];
  }
  async one(statement: Sql) {
    this.record(statement);
    return placeholder();
  }
  async exec(statement: Sql) {
    this.record(statement);
    return 1;
  }
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RepositoryClass = new (db: Db, ...rest: any[]) => object;

/** Module folder -> its repositories. */
const REPOSITORIES: Record<string, RepositoryClass[]> = {
  organizations: [
    OrganizationsRepository,
    UsersRepository,
    VerificationRepository,
    ConnectedAccountsRepository,
  ],
  database: [ServerSecrets],
  webhooks: [WebhooksRepository],
  idempotency: [IdempotencyRepository],
  'payment-requests': [PaymentRequestsRepository],
  payments: [PaymentsRepository],
  checkout: [CheckoutSessionsRepository],
  prices: [PricesRepository],
  customers: [CustomersRepository],
  products: [ProductsRepository],
  invoices: [InvoicesRepository],
  subscriptions: [SubscriptionsRepository],
  dashboard: [DashboardRepository],
  admin: [OperatorsRepository, AuditLogRepository],
  billing: [BillingRepository],
  ledger: [LedgerRepository, RefundsRepository, SettlementReportRepository],
  payouts: [PayoutsRepository],
  portal: [PortalRepository],
  'payment-links': [PaymentLinksRepository],
};

/** The repository on `db`, with the extension points it reads filled as the application fills them. */
function construct(Repository: RepositoryClass, db: Db): object {
  if (Repository === PricesRepository) {
    const products = new PriceProducts();
    new ProductsOfPrices(products).onModuleInit();
    return new PricesRepository(db, products);
  }
  if (Repository === InvoicesRepository) {
    const subscriptions = new InvoiceSubscriptions();
    new SubscriptionsOfInvoices(subscriptions).onModuleInit();
    return new InvoicesRepository(db, CONFIG, subscriptions);
  }
  if (Repository === SubscriptionsRepository) {
    const reminders = new InvoiceReminders();
    new RemindersOfInvoices(reminders).onModuleInit();
    return new SubscriptionsRepository(db, CONFIG, reminders);
  }
  if (Repository === LedgerRepository) {
    const checks = new LedgerChecks();
    checks.register('payouts', payoutLedgerCheck);
    return new LedgerRepository(db, checks);
  }
  if (Repository === PaymentsRepository) {
    const payouts = new PaymentPayouts();
    payouts.register(payoutIdOfPayment);
    return new PaymentsRepository(db, payouts);
  }
  return new Repository(db, CONFIG);
}

async function recordMethods(Repository: RepositoryClass): Promise<Recorded[]> {
  const out: Recorded[] = [];
  const names = Object.getOwnPropertyNames(Repository.prototype).filter((n) => n !== 'constructor');
  for (const name of names) {
    const db = new RecordingDb();
    const repository = construct(Repository, db as unknown as Db) as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    const method = repository[name];
    if (typeof method !== 'function') continue;
    const args =
      ARGUMENTS[`${Repository.name}.${name}`]?.() ?? Array.from({ length: method.length }, placeholder);
    let result: unknown;
    try {
      result = await method.apply(repository, args);
      // A list read in batches (a CSV export): its first batch's statement.
      if (result && typeof result === 'object' && Symbol.asyncIterator in result)
        await (result as unknown as AsyncIterator<unknown>).next();
    } catch {
      // A placeholder row cannot always be mapped; the statements sent before are what counts.
    }
    // A helper building part of a statement: it appears in the statements that use it.
    if (db.statements.length === 0 && result instanceof Sql) continue;
    out.push({ name: `${Repository.name}.${name}`, statements: db.statements });
  }
  return out;
}

/**
 * The arguments of methods whose statement a placeholder cannot build (a domain value taken apart
 * into JSON and parameters): the ones pay gives them.
 */
const ARGUMENTS: Record<string, () => unknown[]> = {
  'PaymentsRepository.open': () => {
    const { request } = paySamples();
    return [{ request, methodId: 'm', phoneNumber: '22000000', organizationId: 'o' }];
  },
  'PaymentsRepository.settle': () => {
    const { payment, request, extensions } = paySamples();
    return [payment, request, 'o', { status: 'completed', bankReference: null }, extensions];
  },
  // A transfer's match: the settlement gated on the transfer's insert (TransfersService.receive).
  'PaymentsRepository.settleGated': () => {
    const { payment, request, extensions } = paySamples();
    const at = new Date('2026-01-01T00:00:00Z');
    const gate = new TransfersRepository(undefined as never).matchGate(
      {
        id: 't',
        environmentId: 'e',
        organizationId: 'o',
        live: true,
        bankReference: 'b',
        receivingBank: 'BANKILY',
        receivingPhone: '22000000',
        payerPhone: '22000001',
        payerApp: 'click',
        amount: 1,
        memo: null,
        receivedAt: at,
        status: 'unmatched',
        paymentId: null,
        paymentRequestId: null,
        createdAt: at,
        updatedAt: at,
      },
      { paymentId: 'p', paymentRequestId: 'r' },
    );
    return [payment, request, 'o', { status: 'completed', bankReference: 'b' }, extensions, gate];
  },
};

/** A request, its payment and the settlement extensions, as pay and the application have them. */
function paySamples() {
  const at = new Date('2026-01-01T00:00:00Z');
  const request: PaymentRequest = {
    id: 'r',
    environmentId: 'e',
    transactionId: 't',
    amount: 1,
    phoneNumber: null,
    status: 'pending',
    paidAt: null,
    invoiceId: null,
    voidedAt: null,
    paymentLinkId: null,
    testClockId: null,
    paymentCount: 0,
    applicationFee: null,
    createdAt: at,
    updatedAt: at,
  };
  const payment: Payment = {
    id: 'p',
    environmentId: 'e',
    paymentRequestId: 'r',
    paymentMethodId: 'm',
    amount: 1,
    phoneNumber: '22000000',
    status: 'pending',
    referenceId: null,
    failureReason: null,
    completedAt: null,
    claimExpiresAt: null,
    receivingBank: null,
    receivingPhone: null,
    refundedAmount: 0,
    nextCheckAt: at,
    createdAt: at,
    updatedAt: at,
  };
  const extensions = [
    { name: 'checkout', ctes: completeOpenSessionCtes },
    {
      name: 'billing',
      ctes: (ctx: Parameters<typeof completeOpenSessionCtes>[0]) => billingSettlementCtes(ctx, PUBLIC_URL),
    },
    {
      name: 'ledger',
      ctes: (ctx: Parameters<typeof completeOpenSessionCtes>[0]) =>
        ledgerSettlementCte(ctx, { defaultFeeBps: 0, payoutDelayDays: 1 }),
    },
  ];
  return { request, payment, extensions };
}

/** Pay's statements, built as the pay service and settlement build them. */
function payStatements(): Recorded[] {
  const { request, payment, extensions } = paySamples();
  const key = RequestKey.of({ environmentId: 'e', keyKind: 'secret' }, 'k', {
    method: 'POST',
    path: '/api/v1/payments',
    body: '{}',
  });
  const open = (k?: RequestKey) =>
    openStatement({ request, methodId: 'm', phoneNumber: '22000000', organizationId: 'o', key: k }).statement;
  const one = (name: string, statement: Sql): Recorded => ({
    name,
    statements: [{ text: statement.compile().text, prepared: statement.prepare }],
  });
  return [
    one('pay: lookUpStatement', lookUpStatement('e', 'm', 't')),
    one('pay: lookUpStatement with an Idempotency-Key', lookUpStatement('e', 'm', 't', key)),
    one('pay: openStatement', open()),
    one('pay: openStatement with an Idempotency-Key', open(key)),
    one('pay: keyedStatement', keyedStatement(key)),
    one(
      'pay: settleStatement, with the checkout, billing and ledger settlement extensions',
      settleStatement(payment, request, 'o', { status: 'completed', bankReference: null }, extensions),
    ),
  ];
}

function render(module: string, recorded: Recorded[]): string {
  const parts = [
    `-- The SQL of src/${module}/ as sent to PostgreSQL. Written by \`npm run queries\`: do not edit.\n`,
  ];
  for (const r of recorded) {
    if (r.statements.length === 0) {
      parts.push(`-- ${r.name}: no statement\n`);
      continue;
    }
    for (const s of r.statements)
      parts.push(`-- ${r.name}${s.prepared ? ' (prepared)' : ''}\n${s.text.trim()};\n`);
  }
  return parts.join('\n');
}

/** File name (docs/queries/<module>.sql) -> its text. */
export async function recordedQueries(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const [module, repositories] of Object.entries(REPOSITORIES)) {
    const recorded: Recorded[] = [];
    if (module === 'payments') recorded.push(...payStatements());
    for (const Repository of repositories) recorded.push(...(await recordMethods(Repository)));
    files[`${module}.sql`] = render(module, recorded);
  }
  return files;
}
