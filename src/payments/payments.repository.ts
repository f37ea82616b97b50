import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { KeysetPage, keysetBatches, keysetPage, KeysetQuery } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, prepared, raw, Sql, sql, SqlRows } from '../database/sql';
import type { KeyRecord } from '../idempotency/idempotency.fragments';
import type { RequestKey } from '../idempotency/request-key';
import { environmentKindOf, organizationOfEnvironment } from '../organizations/organizations.fragments';
import type { EnvironmentKind } from '../organizations/tenant';
import { fromJsonRow, PaymentRequest } from '../payment-requests/payment-request';
import {
  paymentRequestRows,
  requestIdByTransaction,
  transactionIdOf,
} from '../payment-requests/payment-requests.fragments';
import { ClockScope, clockTimeOf, onClock } from '../test-clocks/test-clocks.fragments';
import type { PaymentMethodType } from './banks/bank';
import {
  keyedStatement,
  LookUpRow,
  lookUpStatement,
  Opening,
  OpenFlags,
  openStatement,
  SettledRow,
  settleStatement,
} from './pay.statements';
import {
  DEFAULT_PAYMENT_METHODS,
  GimtelApp,
  SANDBOX_RECEIVING_WALLET,
  TRANSFER_CLAIM_GRACE_MINUTES,
  TRANSFER_METHOD,
} from './payment-methods.defaults';
import { PaymentPayouts } from './payment-payouts';
import { PaymentListItem, PaymentSearch, paymentSearchStatement, toListItem } from './payment-search';
import {
  Payment,
  PaymentCsvRow,
  PaymentJson,
  PaymentMethod,
  paymentFromRow,
  paymentMethodFromRow,
  PaymentStatus,
  toPaymentJson,
} from './payment';
import type { Settlement, SettlementExtension, SettlementGate } from './settlement-types';

/** Payments of one day, one bank app and one status. */
export interface PaymentDayRow {
  day: string;
  methodId: string;
  status: PaymentStatus;
  count: number;
  amount: number;
}

/** A pending payment with what reconciliation needs to ask its bank and settle it. */
export interface PendingPayment {
  payment: Payment;
  organizationId: string;
  environment: EnvironmentKind;
  methodType: PaymentMethodType;
}

const PAYMENT_COLUMNS = sql`p.*, ${transactionIdOf(raw('p.payment_request_id'))} AS transaction_id`;
const PAYMENT_FROM = raw('FROM payments p');
/** The payment's bank app by its name, as the CSV export shows it. */
const METHOD_NAME = raw(
  '(SELECT pm.name FROM payment_methods pm WHERE pm.id = p.payment_method_id) AS payment_method_name',
);

/** A payment locked for a refund, with what a refund needs to know of it. */
export interface RefundablePayment {
  payment: Payment;
  transactionId: string;
  methodType: PaymentMethodType;
  environment: EnvironmentKind;
  organizationId: string;
}

const toJson = (r: Record<string, unknown>) => toPaymentJson(paymentFromRow(r), r.transaction_id as string);

/** Payments and payment methods. */
@Injectable()
export class PaymentsRepository {
  constructor(
    private readonly db: Db,
    private readonly payouts: PaymentPayouts,
  ) {}

  /** A payment's columns for the records the API reads: the row, its request's transactionId, its payout. */
  private get columns(): Sql {
    return sql`${PAYMENT_COLUMNS}, ${this.payouts.payoutIdOf(raw('p.id'))} AS payout_id`;
  }

  async lookUp(environmentId: string, methodId: string, transactionId: string, key?: RequestKey) {
    const row = await this.db.one<LookUpRow>(lookUpStatement(environmentId, methodId, transactionId, key));
    return {
      method: row!.method,
      request: row!.request ? fromJsonRow(row!.request) : null,
      keyed: row!.keyed ?? null,
    };
  }

  /** An Idempotency-Key's record with the payment it opened (see `keyedPaymentJson`). */
  async keyRecordWithPayment(key: RequestKey): Promise<KeyRecord | null> {
    const row = await this.db.one<{ keyed: KeyRecord | null }>(keyedStatement(key));
    return row!.keyed;
  }

  /**
   * Opens a `pending` payment of the request, in one statement (`openStatement`: the request
   * locked and rechecked, the pay-attempt limit, the payment and `payment-created`, the key's
   * record). `flags` say whether it was opened, and if not why.
   */
  async open(opening: Opening): Promise<{ payment: Payment; flags: OpenFlags }> {
    const { payment, statement } = openStatement(opening);
    const flags = (await this.db.one<OpenFlags>(statement))!;
    return { payment, flags };
  }

  /**
   * Settles a pending payment, in one statement (`settleStatement`, with the extensions' CTEs):
   * its settled row, or undefined when it was no longer pending.
   */
  settle(
    payment: Payment,
    request: PaymentRequest,
    organizationId: string,
    outcome: Settlement,
    extensions: readonly SettlementExtension[],
  ): Promise<SettledRow | undefined> {
    return this.db.one<SettledRow>(settleStatement(payment, request, organizationId, outcome, extensions));
  }

  /**
   * The same settlement with a caller's change in its statement deciding it (`SettlementGate`):
   * the gate's value, and the settled row or undefined when it did not settle.
   */
  async settleGated(
    payment: Payment,
    request: PaymentRequest,
    organizationId: string,
    outcome: Settlement,
    extensions: readonly SettlementExtension[],
    gate: SettlementGate,
  ): Promise<{ gate: unknown; settled: SettledRow | undefined }> {
    const { gate: value, ...row } = (await this.db.one<SettledRow & { gate: unknown }>(
      settleStatement(payment, request, organizationId, outcome, extensions, gate),
    ))!;
    return { gate: value, settled: row.id === null ? undefined : row };
  }

  /** The bank's reference of a payment it holds as pending. */
  async setReference(id: string, referenceId: string): Promise<void> {
    await this.db.exec(
      sql`UPDATE payments SET reference_id = ${referenceId} WHERE id = ${id} AND status = 'pending'`,
    );
  }

  async byId(id: string): Promise<Payment | undefined> {
    const row = await this.db.one(sql`SELECT * FROM payments WHERE id = ${id}`);
    return row && paymentFromRow(row);
  }

  /** The payment as the API shows it (with its request's transactionId). */
  async paymentJson(environmentId: string, id: string): Promise<PaymentJson | undefined> {
    const row = await this.db.one(
      sql`SELECT ${this.columns} ${PAYMENT_FROM} WHERE p.id = ${id} AND p.environment_id = ${environmentId}`,
    );
    return row && toJson(row);
  }

  /** The newest payment of a request, as the API shows it; undefined before any. */
  async latestOfRequest(environmentId: string, paymentRequestId: string): Promise<PaymentJson | undefined> {
    const row = await this.db.one(sql`SELECT ${PAYMENT_COLUMNS} ${PAYMENT_FROM}
       WHERE p.payment_request_id = ${paymentRequestId} AND p.environment_id = ${environmentId}
       ORDER BY p.created_at DESC, p.id DESC LIMIT 1`);
    return row && toJson(row);
  }

  /** The newest payment of a request, the whole record (a transfer's claim and wallet too); undefined before any. */
  async latestPaymentOfRequest(
    environmentId: string,
    paymentRequestId: string,
  ): Promise<Payment | undefined> {
    const row = await this.db.one(sql`SELECT * FROM payments
       WHERE payment_request_id = ${paymentRequestId} AND environment_id = ${environmentId}
       ORDER BY created_at DESC, id DESC LIMIT 1`);
    return row && paymentFromRow(row);
  }

  /** Newest first; filters combine. */
  async list(
    environmentId: string,
    filter: { transactionId?: string; paymentRequestId?: string; status?: PaymentStatus },
    page: Page,
  ): Promise<{ items: PaymentJson[]; total: number }> {
    const where = [sql`p.environment_id = ${environmentId}`];
    if (filter.transactionId !== undefined)
      where.push(sql`p.payment_request_id = ${requestIdByTransaction(environmentId, filter.transactionId)}`);
    if (filter.paymentRequestId !== undefined)
      where.push(sql`p.payment_request_id = ${filter.paymentRequestId}`);
    if (filter.status !== undefined) where.push(sql`p.status = ${filter.status}`);
    const { rows, total } = await pageRows<Record<string, unknown>>(
      this.db,
      {
        select: this.columns,
        from: sql`${PAYMENT_FROM} WHERE ${and(where)}`,
        orderBy: sql`p.created_at DESC, p.id DESC`,
      },
      page,
    );
    return { items: rows.map(toJson), total };
  }

  /** Every payment the list's filters select, newest first, in batches (the CSV export). */
  async *listAll(
    environmentId: string,
    filter: { transactionId?: string; paymentRequestId?: string; status?: PaymentStatus },
  ): AsyncGenerator<PaymentCsvRow[]> {
    const where = [sql`p.environment_id = ${environmentId}`];
    if (filter.transactionId !== undefined)
      where.push(sql`p.payment_request_id = ${requestIdByTransaction(environmentId, filter.transactionId)}`);
    if (filter.paymentRequestId !== undefined)
      where.push(sql`p.payment_request_id = ${filter.paymentRequestId}`);
    if (filter.status !== undefined) where.push(sql`p.status = ${filter.status}`);
    for await (const rows of keysetBatches<Record<string, unknown>>(this.db, {
      select: sql`${this.columns}, ${METHOD_NAME}`,
      from: PAYMENT_FROM,
      alias: 'p',
      where,
    }))
      yield rows.map((r) => ({
        ...toJson(r),
        paymentMethod: (r.payment_method_name as string | null) ?? null,
      }));
  }

  /** A page of the dashboard's payments search (see paymentSearchStatement). */
  async search(
    environmentId: string,
    filter: PaymentSearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<PaymentListItem>> {
    const rows = await this.db.many<Record<string, unknown> & { cursor: string }>(
      paymentSearchStatement(environmentId, filter, page),
    );
    const result = keysetPage(rows, page);
    return { ...result, items: result.items.map(toListItem) };
  }

  /** Every payment of a request, newest first, with its bank app. */
  async ofRequest(environmentId: string, paymentRequestId: string): Promise<PaymentListItem[]> {
    const rows = await this.db.many(sql`
      SELECT ${this.columns}, pm.name AS method_name, pm.type AS method_type
        FROM payments p
        JOIN payment_methods pm ON pm.id = p.payment_method_id
       WHERE p.payment_request_id = ${paymentRequestId} AND p.environment_id = ${environmentId}
       ORDER BY p.created_at DESC, p.id DESC`);
    return rows.map(toListItem);
  }

  /** Every bank app of the environment, enabled or not, in display order. */
  async methods(environmentId: string): Promise<PaymentMethod[]> {
    const rows = await this.db.many(
      sql`SELECT * FROM payment_methods WHERE environment_id = ${environmentId} ORDER BY position, name`,
    );
    return rows.map(paymentMethodFromRow);
  }

  /**
   * Claims up to `limit` pending payments at least `minAgeMs` old and due for a check, pushing
   * their next check `retryAfterMs` away (the claim: other instances skip them).
   */
  async claimForReconciliation(minAgeMs: number, limit: number, retryAfterMs: number): Promise<string[]> {
    const rows = await this.db.many<{ id: string }>(sql`
      WITH due AS (
        SELECT id FROM payments
         WHERE status = 'pending' AND claim_expires_at IS NULL AND next_check_at <= now() AND created_at <= now() - ${minAgeMs}::int * interval '1 millisecond'
         ORDER BY next_check_at
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED
      )
      UPDATE payments p SET next_check_at = now() + ${retryAfterMs}::int * interval '1 millisecond'
        FROM due WHERE p.id = due.id
      RETURNING p.id`);
    return rows.map((r) => r.id);
  }

  /** Pending payments, oldest first, with their bank app and environment. */
  async pending(filter: { ids: string[] } | { paymentRequestId: string }): Promise<PendingPayment[]> {
    const condition =
      'ids' in filter
        ? sql`p.id = ANY(${filter.ids}::uuid[])`
        : sql`p.payment_request_id = ${filter.paymentRequestId}`;
    const rows = await this.db.many(sql`
      SELECT p.*, pm.type AS method_type, ${environmentKindOf(raw('p.environment_id'))} AS environment_kind,
             ${organizationOfEnvironment(raw('p.environment_id'))} AS organization_id
        FROM payments p
        JOIN payment_methods pm ON pm.id = p.payment_method_id
       WHERE p.status = 'pending' AND p.claim_expires_at IS NULL AND ${condition}
       ORDER BY p.created_at`);
    return rows.map((r) => ({
      payment: paymentFromRow(r),
      organizationId: r.organization_id as string,
      environment: r.environment_kind as EnvironmentKind,
      methodType: r.method_type as PaymentMethodType,
    }));
  }

  /** The bank apps enabled for the environment, in display order. */
  async enabledMethods(environmentId: string): Promise<PaymentMethod[]> {
    const rows = await this.db.many(sql`
      SELECT * FROM payment_methods WHERE environment_id = ${environmentId} AND enabled ORDER BY position, name`);
    return rows.map(paymentMethodFromRow);
  }

  async enabledMethod(environmentId: string, id: string): Promise<PaymentMethod | undefined> {
    const row = await this.db.one(
      sql`SELECT * FROM payment_methods WHERE id = ${id} AND environment_id = ${environmentId} AND enabled`,
    );
    return row && paymentMethodFromRow(row);
  }

  /**
   * A new environment's bank apps: Bankily, Masrivi and Sedad, enabled; and the transfer method,
   * off until its owner turns it on, with Sandbox's preset receiving wallet.
   */
  async insertDefaultMethods(environment: { id: string; kind: EnvironmentKind }): Promise<void> {
    const methods = DEFAULT_PAYMENT_METHODS.map((m, i) => ({
      type: m.type,
      name: m.name,
      requires_pass_code: m.requiresPassCode,
      position: i + 1,
    }));
    const wallet = environment.kind === 'sandbox' ? SANDBOX_RECEIVING_WALLET : null;
    await this.db.exec(sql`
      INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code, position, flow, enabled,
                                   receiving_bank, receiving_phone)
      SELECT ${environment.id}::uuid, m.type, m.name, m.requires_pass_code, m.type, m.position, 'push', true, NULL, NULL
        FROM jsonb_to_recordset(${JSON.stringify(methods)}::jsonb) AS m(type text, name text, requires_pass_code boolean, position integer)
      UNION ALL
      SELECT ${environment.id}::uuid, ${TRANSFER_METHOD.type}::text, ${TRANSFER_METHOD.name}::text, false,
             ${TRANSFER_METHOD.type}::text, ${TRANSFER_METHOD.position}::int, 'transfer', false, ${wallet?.receivingBank ?? null}::text,
             ${wallet?.receivingPhone ?? null}::text`);
  }

  /** The environment's transfer method (GIMTEL), enabled or not: every environment has one. */
  async transferMethod(environmentId: string): Promise<PaymentMethod | undefined> {
    const row = await this.db.one(
      sql`SELECT * FROM payment_methods WHERE environment_id = ${environmentId} AND flow = 'transfer'`,
    );
    return row && paymentMethodFromRow(row);
  }

  /** Sets the environment's transfer method: on or off, and its receiving wallet. */
  async setTransferMethod(
    environmentId: string,
    change: { enabled: boolean; receivingBank: string | null; receivingPhone: string | null },
  ): Promise<PaymentMethod> {
    const row = await this.db.one(sql`
      UPDATE payment_methods SET enabled = ${change.enabled}, receiving_bank = ${change.receivingBank},
             receiving_phone = ${change.receivingPhone}, updated_at = now()
       WHERE environment_id = ${environmentId} AND flow = 'transfer'
      RETURNING *`);
    return paymentMethodFromRow(row!);
  }

  /** The request's pending payment (at most one: a partial unique index), any method. */
  async pendingOfRequest(paymentRequestId: string): Promise<Payment | undefined> {
    const row = await this.db.one(
      sql`SELECT * FROM payments WHERE payment_request_id = ${paymentRequestId} AND status = 'pending'`,
    );
    return row && paymentFromRow(row);
  }

  /**
   * Up to `limit` pending transfer payments of `clock` (default: the real clock's, on no test
   * clock) whose claim and its grace ended before `asOf`, oldest claim first, optionally among some
   * payments or environments. The real clock's read is a range of payments_transfer_claims_idx, a
   * test clock's of payments_test_clock_claims_idx: neither sees the other's payments.
   */
  async expiredTransferClaims(
    asOf: Date,
    limit: number,
    among: { paymentIds?: readonly string[]; environmentIds?: readonly string[]; clock?: ClockScope } = {},
  ): Promise<{ payment: Payment; organizationId: string }[]> {
    const where = [
      sql`status = 'pending' AND claim_expires_at IS NOT NULL AND ${onClock(raw('test_clock_id'), among.clock ?? null)}`,
      sql`claim_expires_at < ${asOf}::timestamptz - make_interval(mins => ${TRANSFER_CLAIM_GRACE_MINUTES})`,
    ];
    if (among.paymentIds) where.push(sql`id = ANY(${among.paymentIds}::uuid[])`);
    if (among.environmentIds) where.push(sql`environment_id = ANY(${among.environmentIds}::uuid[])`);
    const rows = await this.db.many(sql`
      SELECT *, ${organizationOfEnvironment(raw('environment_id'))} AS organization_id
        FROM payments WHERE ${and(where)} ORDER BY claim_expires_at, id LIMIT ${limit}`);
    return rows.map((r) => ({ payment: paymentFromRow(r), organizationId: r.organization_id as string }));
  }

  /**
   * The first instant after `after` at which a pending transfer payment of the test clock is past
   * its claim and grace (the claim's end + grace + 1 ms: expiry is strictly after the grace, as a
   * transfer received at its very end still matches), or null: one moment of the clock's advance.
   * The first row of a range of payments_test_clock_claims_idx.
   */
  async nextClaimExpiryOnClock(clockId: string, after: Date): Promise<Date | null> {
    // At each moment of a test clock's advance: planned once per connection.
    const row = await this.db.one<{ at: Date | null }>(
      prepared(sql`
      SELECT claim_expires_at + make_interval(mins => ${TRANSFER_CLAIM_GRACE_MINUTES}) + interval '1 millisecond' AS at
        FROM payments
       WHERE test_clock_id = ${clockId}::uuid AND status = 'pending' AND claim_expires_at IS NOT NULL
         AND claim_expires_at >= ${after}::timestamptz - make_interval(mins => ${TRANSFER_CLAIM_GRACE_MINUTES})
       ORDER BY claim_expires_at LIMIT 1`),
    );
    return row?.at ?? null;
  }

  /** The time now of a test clock (a transfer claim on it starts there); null: no such clock. */
  async clockTime(clockId: string): Promise<Date | null> {
    const row = await this.db.one<{ at: Date | null }>(
      sql`SELECT ${clockTimeOf(sql`${clockId}::uuid`)} AS at`,
    );
    return row?.at ?? null;
  }

  /** The member apps a customer may pay a transfer from, in display order. */
  gimtelApps(): Promise<GimtelApp[]> {
    return this.db.many<GimtelApp>(sql`SELECT code, name FROM gimtel_apps ORDER BY position, code`);
  }

  /** Replaces the member apps (the operator's list), in the order given. */
  async replaceGimtelApps(apps: readonly GimtelApp[]): Promise<void> {
    const rows = apps.map((a, i) => ({ code: a.code, name: a.name, position: i + 1 }));
    await this.db.transaction(async () => {
      await this.db.exec(sql`DELETE FROM gimtel_apps WHERE code <> ALL(${apps.map((a) => a.code)}::text[])`);
      await this.db.exec(sql`
        INSERT INTO gimtel_apps (code, name, position, updated_at)
        SELECT a.code, a.name, a.position, now()
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS a(code text, name text, position integer)
        ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, position = EXCLUDED.position, updated_at = now()`);
    });
  }

  /**
   * Where a transfer belongs and the pending transfer payments it may complete (docs/transfers.md
   * "How a transfer is matched"), in one statement. The environment: a live transfer's is the
   * Production environment whose enabled transfer method receives at its wallet
   * (`environmentOfWallet`: none when no environment, or several, have it); a Sandbox one's is
   * named. The candidates: of that environment and receiving wallet, from the payer's phone, of
   * the amount, whose claim (plus the grace) had not expired when the transfer was received; a
   * payment on a test clock, whose claim runs on the clock's time, when the clock's time now is
   * within it (docs/transfers.md "Claims on a test clock"). At most two are read: two is
   * "several". Each comes with its request (matching needs both).
   */
  async transferCandidates(
    transfer: {
      receivingBank: string;
      receivingPhone: string;
      payerPhone: string;
      amount: number;
      receivedAt: Date;
    },
    environment: { environmentId: string; organizationId: string } | 'of-wallet',
  ): Promise<{
    environmentId: string | null;
    organizationId: string | null;
    candidates: { payment: Payment; request: PaymentRequest }[];
  }> {
    const owner =
      environment === 'of-wallet'
        ? environmentOfWallet(transfer.receivingBank, transfer.receivingPhone)
        : sql`(SELECT ${environment.environmentId}::uuid AS environment_id, ${environment.organizationId}::uuid AS organization_id)`;
    const rows = await this.db.many<
      Record<string, unknown> & {
        owner_environment_id: string | null;
        owner_organization_id: string | null;
        request: Record<string, unknown> | null;
      }
    >(
      // Prepared: planning it cost three times its execution (pg_stat_statements in the bench).
      prepared(sql`
      SELECT w.environment_id AS owner_environment_id, w.organization_id AS owner_organization_id, c.*
        FROM ${owner} w
        LEFT JOIN LATERAL (
          SELECT p.*, to_jsonb(pr) AS request
            FROM payments p JOIN ${paymentRequestRows('pr')} ON pr.id = p.payment_request_id
           WHERE p.environment_id = w.environment_id AND p.phone_number = ${transfer.payerPhone}
             AND p.amount = ${transfer.amount} AND p.status = 'pending' AND p.claim_expires_at IS NOT NULL
             AND p.receiving_bank = ${transfer.receivingBank} AND p.receiving_phone = ${transfer.receivingPhone}
             AND p.claim_expires_at + make_interval(mins => ${TRANSFER_CLAIM_GRACE_MINUTES})
                 >= CASE WHEN p.test_clock_id IS NULL THEN ${transfer.receivedAt}::timestamptz
                         ELSE ${clockTimeOf(raw('p.test_clock_id'))} END
           ORDER BY p.created_at, p.id
           LIMIT 2) c ON true`),
    );
    const { owner_environment_id: environmentId, owner_organization_id: organizationId } = rows[0];
    return {
      environmentId,
      organizationId,
      candidates: rows
        .filter((r) => r.request !== null)
        .map(({ request, owner_environment_id: _e, owner_organization_id: _o, ...payment }) => ({
          payment: paymentFromRow(payment),
          request: fromJsonRow(request!),
        })),
    };
  }

  /**
   * A payment of the environment, locked (FOR UPDATE) until the transaction ends so that refunds
   * of one payment queue, with its request's transactionId and its bank app. Undefined: no such
   * payment in the environment.
   */
  async lockForRefund(environmentId: string, id: string): Promise<RefundablePayment | undefined> {
    const row = await this.db.one<Record<string, unknown>>(sql`
      SELECT ${PAYMENT_COLUMNS}, pm.type AS method_type, ${environmentKindOf(raw('p.environment_id'))} AS environment,
             ${organizationOfEnvironment(raw('p.environment_id'))} AS organization_id
        FROM payments p JOIN payment_methods pm ON pm.id = p.payment_method_id
       WHERE p.id = ${id} AND p.environment_id = ${environmentId}
         FOR UPDATE OF p`);
    if (!row) return undefined;
    return {
      payment: paymentFromRow(row),
      transactionId: row.transaction_id as string,
      methodType: row.method_type as PaymentMethodType,
      environment: row.environment as EnvironmentKind,
      organizationId: row.organization_id as string,
    };
  }

  /**
   * Adds `delta` (negative: gives back) to what is refunded of a completed payment; the database
   * refuses more than the amount (a CHECK), whatever the caller checked.
   */
  async addRefunded(id: string, delta: number): Promise<void> {
    await this.db.exec(sql`
      UPDATE payments SET refunded_amount = refunded_amount + ${delta}, updated_at = now()
       WHERE id = ${id} AND status = 'completed'`);
  }

  /**
   * The environment's settled payments (completed or failed) made in [from, to), per UTC day, bank
   * app and status: one range scan of payments_list_idx.
   */
  settledDays(environmentId: string, from: Date, to: Date | null): Promise<PaymentDayRow[]> {
    return this.db.many<PaymentDayRow>(sql`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, "methodId", status, count, amount FROM (
        SELECT date_trunc('day', p.created_at AT TIME ZONE 'UTC') AS day, p.payment_method_id AS "methodId", p.status,
               count(*)::int AS count, sum(p.amount)::float8 AS amount
          FROM payments p
         WHERE p.environment_id = ${environmentId} AND p.created_at >= ${from}
           AND p.created_at < COALESCE(${to}::timestamptz, 'infinity') AND p.status <> 'pending'
         GROUP BY 1, 2, 3) days`);
  }
}

/**
 * SQL after FROM (in parentheses): one row, the Production environment whose enabled transfer
 * method receives at the wallet (`receivingBank`, `receivingPhone`), columns `environment_id` and
 * `organization_id`; both null when no environment has the wallet or several have it (the
 * transfer is then kept for an operator: docs/transfers.md).
 */
function environmentOfWallet(
  receivingBank: string,
  receivingPhone: string,
): SqlRows<{ environment_id: string | null; organization_id: string | null }> {
  return sql`(SELECT w.environment_id, w.organization_id FROM (VALUES (1)) AS one (x)
      LEFT JOIN (SELECT pm.environment_id, ${organizationOfEnvironment(raw('pm.environment_id'))} AS organization_id,
                        count(*) OVER () AS wallets
                   FROM payment_methods pm
                  WHERE pm.flow = 'transfer' AND pm.enabled AND pm.receiving_bank = ${receivingBank}
                    AND pm.receiving_phone = ${receivingPhone}
                    AND ${environmentKindOf(raw('pm.environment_id'))} = 'production'
                  LIMIT 2) w ON w.wallets = 1)`;
}
