import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { pageRows } from '../database/paging';
import { and, prepared, Sql, sql } from '../database/sql';
import type { KeyedWrite, KeyedWriteRow } from '../idempotency/idempotency.repository';
import { insertEventWhen } from '../webhooks/outbox';
import {
  fromRow,
  PaymentRequest,
  PaymentRequestRow,
  PaymentRequestStatus,
  toPaymentRequestJson,
} from './payment-request';

export interface LockedRequest {
  id: string;
  status: PaymentRequestStatus;
}

@Injectable()
export class PaymentRequestsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the request and records `payment-request-created`, in one statement. A used
   * transactionId inserts nothing, and so records nothing: false.
   */
  async insert(pr: PaymentRequest, organizationId: string): Promise<boolean> {
    const rows = await this.db.many(sql`
      WITH created AS (
        INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, created_at, updated_at)
        VALUES (${pr.id}, ${pr.environmentId}, ${pr.transactionId}, ${pr.amount}, ${pr.phoneNumber}, ${pr.invoiceId}, ${pr.createdAt}, ${pr.createdAt})
        ON CONFLICT (environment_id, transaction_id) DO NOTHING
        RETURNING id
      ), event AS (${createdEvent(pr, organizationId)})
      SELECT id FROM created`);
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
        INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, created_at, updated_at)
        SELECT ${pr.id}, ${pr.environmentId}, ${pr.transactionId}, ${pr.amount}, ${pr.phoneNumber}, ${pr.invoiceId}, ${pr.createdAt}, ${pr.createdAt}
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

  async byTransactionId(environmentId: string, transactionId: string): Promise<PaymentRequest | undefined> {
    const row = await this.db.one<PaymentRequestRow>(
      sql`SELECT * FROM payment_requests WHERE environment_id = ${environmentId} AND transaction_id = ${transactionId}`,
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
      sql`SELECT id, status FROM payment_requests WHERE ${where} AND environment_id = ${environmentId} FOR UPDATE`,
    );
  }

  /** Newest first. */
  async list(environmentId: string, filter: { status?: PaymentRequestStatus }, page: Page) {
    const conditions = [sql`environment_id = ${environmentId}`];
    if (filter.status) conditions.push(sql`status = ${filter.status}`);
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
