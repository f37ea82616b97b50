import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { KeysetPage, keysetBatches, keysetPage, KeysetQuery } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, prepared, Sql, sql } from '../database/sql';
import type { KeyedWrite, KeyedWriteRow } from '../idempotency/idempotency.repository';
import { insertEvent, insertEventWhen } from '../webhooks/outbox';
import {
  fromRow,
  PaymentRequest,
  PaymentRequestRow,
  PaymentRequestStatus,
  REQUEST_COLUMNS,
  toPaymentRequestJson,
} from './payment-request';
import { PaymentRequestSearch, searchStatement } from './payment-request-search';

/** The API list's filters (`GET /payment-request`); they combine. */
export interface PaymentRequestListFilter {
  status?: PaymentRequestStatus;
  paymentLinkId?: string;
}

export interface LockedRequest {
  id: string;
  status: PaymentRequestStatus;
  voided: boolean;
  amount: number;
  applicationFee: number | null;
  paymentLinkId: string | null;
}

@Injectable()
export class PaymentRequestsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the request and records `payment-request-created`, in one statement. A used
   * transactionId inserts nothing, and so records nothing: false.
   */
  async insert(pr: PaymentRequest, organizationId: string): Promise<boolean> {
    const rows = await this.db.many(
      prepared(sql`
      WITH created AS (
        INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, payment_link_id, created_at, updated_at)
        VALUES (${pr.id}, ${pr.environmentId}, ${pr.transactionId}, ${pr.amount}, ${pr.phoneNumber}, ${pr.invoiceId}, ${pr.applicationFee}, ${pr.paymentLinkId}, ${pr.createdAt}, ${pr.createdAt})
        ON CONFLICT (environment_id, transaction_id) DO NOTHING
        RETURNING id
      ), event AS (${createdEvent(pr, organizationId)})
      SELECT id FROM created`),
    );
    return rows.length > 0;
  }

  /**
   * The same insert for a request with an Idempotency-Key, still one statement: the key is claimed
   * and checked first, and recorded with the request and its event (`KeyedWrite`).
   */
  async insertKeyed(
    pr: PaymentRequest,
    organizationId: string,
    w: KeyedWrite,
  ): Promise<KeyedWriteRow & { id: string | null }> {
    return (await this.db.one<KeyedWriteRow & { id: string | null }>(
      prepared(sql`
      WITH ${w.ctes}, created AS (
        INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, created_at, updated_at)
        SELECT ${pr.id}, ${pr.environmentId}, ${pr.transactionId}, ${pr.amount}, ${pr.phoneNumber}, ${pr.invoiceId}, ${pr.applicationFee}::int, ${pr.createdAt}, ${pr.createdAt}
          ${w.whenFree}
        ON CONFLICT (environment_id, transaction_id) DO NOTHING
        RETURNING id
      ), event AS (${createdEvent(pr, organizationId)}), ${w.record('created')}
      SELECT (SELECT id FROM created) AS id, ${w.outcome}`),
    ))!;
  }

  async byId(environmentId: string, id: string): Promise<PaymentRequest | undefined> {
    const row = await this.db.one<PaymentRequestRow>(
      sql`SELECT * FROM payment_requests WHERE id = ${id} AND environment_id = ${environmentId}`,
    );
    return row && fromRow(row);
  }

  /** By id in any environment (for code that already holds a valid reference). */
  async byIdAnywhere(id: string): Promise<PaymentRequest | undefined> {
    const row = await this.db.one<PaymentRequestRow>(sql`SELECT * FROM payment_requests WHERE id = ${id}`);
    return row && fromRow(row);
  }

  /** Prepared: the API's look-up by transactionId is a hot path, and planning it cost as much as running it. */
  async byTransactionId(environmentId: string, transactionId: string): Promise<PaymentRequest | undefined> {
    const row = await this.db.one<PaymentRequestRow>(
      prepared(
        sql`SELECT ${REQUEST_COLUMNS} FROM payment_requests WHERE environment_id = ${environmentId} AND transaction_id = ${transactionId}`,
      ),
    );
    return row && fromRow(row);
  }

  /** Locks the request row (the first lock of every path that changes a request's payments or sessions). */
  lock(
    environmentId: string,
    by: { id: string } | { transactionId: string },
  ): Promise<LockedRequest | undefined> {
    const where: Sql = 'id' in by ? sql`id = ${by.id}` : sql`transaction_id = ${by.transactionId}`;
    return this.db.one<LockedRequest>(
      sql`SELECT id, status, voided_at IS NOT NULL AS voided, amount, application_fee AS "applicationFee",
                 payment_link_id AS "paymentLinkId"
          FROM payment_requests WHERE ${where} AND environment_id = ${environmentId} FOR UPDATE`,
    );
  }

  /**
   * Sets the application fee of a pending request (a checkout session made for a connected account
   * names an existing request) and records its `payment-request-updated`, in one statement.
   */
  async setApplicationFee(
    environmentId: string,
    id: string,
    fee: number,
    organizationId: string,
  ): Promise<PaymentRequest | undefined> {
    const row = await this.db.one<PaymentRequestRow>(sql`
      UPDATE payment_requests SET application_fee = ${fee}, updated_at = now()
       WHERE id = ${id} AND environment_id = ${environmentId} AND status = 'pending'
      RETURNING *`);
    if (!row) return undefined;
    const pr = fromRow(row);
    await this.db.exec(
      insertEvent({
        organizationId,
        environmentId,
        kind: 'payment-request-updated',
        data: toPaymentRequestJson(pr),
        createdAt: pr.updatedAt,
      }),
    );
    return pr;
  }

  /** A page of the dashboard's search (see searchStatement). */
  async search(
    environmentId: string,
    filter: PaymentRequestSearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<PaymentRequest>> {
    const rows = await this.db.many<PaymentRequestRow & { cursor: string }>(
      searchStatement(environmentId, filter, page),
    );
    const result = keysetPage(rows, page);
    return { ...result, items: result.items.map(fromRow) };
  }

  /** Newest first. */
  async list(environmentId: string, filter: PaymentRequestListFilter, page: Page) {
    const conditions = [sql`environment_id = ${environmentId}`];
    if (filter.status) conditions.push(sql`status = ${filter.status}`);
    if (filter.paymentLinkId) conditions.push(sql`payment_link_id = ${filter.paymentLinkId}`);
    const { rows, total } = await pageRows<PaymentRequestRow>(
      this.db,
      {
        select: sql`*`,
        from: sql`FROM payment_requests WHERE ${and(conditions)}`,
        orderBy: sql`created_at DESC, id DESC`,
      },
      page,
    );
    return { items: rows.map(fromRow), total };
  }

  /** Every payment request the list's filter selects, newest first, in batches (the CSV export). */
  async *listAll(environmentId: string, filter: PaymentRequestListFilter): AsyncGenerator<PaymentRequest[]> {
    const where = [sql`r.environment_id = ${environmentId}`];
    if (filter.status) where.push(sql`r.status = ${filter.status}`);
    if (filter.paymentLinkId) where.push(sql`r.payment_link_id = ${filter.paymentLinkId}`);
    for await (const rows of keysetBatches<PaymentRequestRow>(this.db, {
      select: sql`r.*`,
      from: sql`FROM payment_requests r`,
      alias: 'r',
      where,
    }))
      yield rows.map(fromRow);
  }

  /** Payment requests created in [from, to), per UTC day: an index-only range scan. */
  createdDays(environmentId: string, from: Date, to: Date | null): Promise<{ day: string; count: number }[]> {
    return this.db.many(sql`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, count FROM (
        SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*)::int AS count
          FROM payment_requests
         WHERE environment_id = ${environmentId} AND created_at >= ${from}
           AND created_at < COALESCE(${to}::timestamptz, 'infinity')
         GROUP BY 1) days`);
  }
}

/** `payment-request-created`, recorded when the CTE `created` inserted the request. */
function createdEvent(pr: PaymentRequest, organizationId: string): Sql {
  return insertEventWhen('created', {
    organizationId,
    environmentId: pr.environmentId,
    kind: 'payment-request-created',
    data: toPaymentRequestJson(pr),
    createdAt: pr.createdAt,
  });
}
