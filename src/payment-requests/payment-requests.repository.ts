import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { normalizePhone } from '../common/validation/rules';
import { Db } from '../database/db';
import {
  cursorColumn,
  KeysetPage,
  keysetBatches,
  keysetClauses,
  keysetPage,
  KeysetQuery,
} from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, join, prepared, raw, Sql, sql } from '../database/sql';
import type { KeyedWrite, KeyedWriteRow } from '../idempotency/idempotency.repository';
import { insertEvent, insertEventWhen } from '../webhooks/outbox';
import {
  fromRow,
  PaymentRequest,
  PaymentRequestRow,
  PaymentRequestStatus,
  toPaymentRequestJson,
} from './payment-request';

/** The dashboard's filters; they combine. `q` is a transactionId, an id or a phone number. */
export interface PaymentRequestSearch {
  q?: string;
  status?: PaymentRequestStatus;
  transactionId?: string;
  phoneNumber?: string;
  /** created_at >= from */
  from?: Date;
  /** created_at < to */
  to?: Date;
  amountMin?: number;
  amountMax?: number;
  /** The requests of one payment link. */
  paymentLinkId?: string;
}

/** The API list's filters (`GET /payment-request`); they combine. */
export interface PaymentRequestListFilter {
  status?: PaymentRequestStatus;
  paymentLinkId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The search of the dashboard, one statement: the filters, then a keyset page in the list's order
 * (docs/dashboard.md shows its plans over 1,000,000 requests). `q` matches exactly: a transactionId,
 * an id (when it is a UUID) or a phone number (when it normalises to one).
 */
export function searchStatement(environmentId: string, f: PaymentRequestSearch, page: KeysetQuery): Sql {
  const where = [sql`pr.environment_id = ${environmentId}`];
  if (f.q !== undefined) {
    const any = [sql`pr.transaction_id = ${f.q}`];
    if (UUID.test(f.q)) any.push(sql`pr.id = ${f.q}::uuid`);
    const phone = normalizePhone(f.q);
    if (phone) any.push(sql`pr.phone_number = ${phone}`);
    where.push(any.length === 1 ? any[0] : sql`(${join(any, raw(' OR '))})`);
  }
  if (f.status !== undefined) where.push(sql`pr.status = ${f.status}`);
  if (f.transactionId !== undefined) where.push(sql`pr.transaction_id = ${f.transactionId}`);
  if (f.phoneNumber !== undefined) where.push(sql`pr.phone_number = ${f.phoneNumber}`);
  if (f.from !== undefined) where.push(sql`pr.created_at >= ${f.from}`);
  if (f.to !== undefined) where.push(sql`pr.created_at < ${f.to}`);
  if (f.amountMin !== undefined) where.push(sql`pr.amount >= ${f.amountMin}`);
  if (f.amountMax !== undefined) where.push(sql`pr.amount <= ${f.amountMax}`);
  if (f.paymentLinkId !== undefined) where.push(sql`pr.payment_link_id = ${f.paymentLinkId}`);
  const k = keysetClauses('pr', page);
  return sql`SELECT pr.*, ${cursorColumn('pr')} FROM payment_requests pr
    WHERE ${and([...where, ...k.where])} ORDER BY ${k.orderBy} LIMIT ${k.limit}`;
}

export interface LockedRequest {
  id: string;
  status: PaymentRequestStatus;
  voided: boolean;
  amount: number;
  applicationFee: number | null;
  paymentLinkId: string | null;
}

/**
 * Many payment requests at once, for set-based work (a billing batch), as a data-modifying CTE
 * body returning their ids: one request per row of `source` (SQL after FROM), whose columns are
 * id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee and
 * created_at. The caller records their `payment-request-created` events in the same statement.
 */
export function insertRequestsFrom(source: Sql): Sql {
  return sql`INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, created_at, updated_at)
    SELECT id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, created_at, created_at FROM ${source}
    RETURNING id`;
}

/*
 * Parts of other modules' statements (pay and settlement in payments, voiding in invoices): the
 * payment_requests side of a statement that spans both, so one round trip stays one.
 */

/** SQL: the request with this transactionId as row_to_json (its timestamps as text), or null. */
export function requestJsonByTransaction(environmentId: string, transactionId: string): Sql {
  return sql`(SELECT row_to_json(pr) FROM payment_requests pr
      WHERE pr.environment_id = ${environmentId} AND pr.transaction_id = ${transactionId})`;
}

/**
 * SQL after FROM or JOIN: the payment requests, as `alias`, for a statement of another module that
 * shows its own rows with their request's transaction_id, amount and phone_number (the hosted pages).
 */
export function paymentRequestRows(alias: string): Sql {
  return raw(`payment_requests ${alias}`);
}

/** SQL: the application fee of a request (`id`, SQL naming it; null: none), for the ledger's settlement. */
export function applicationFeeOf(id: Sql): Sql {
  return sql`(SELECT application_fee FROM payment_requests WHERE id = ${id})`;
}

/** SQL: the transactionId of a request (`id`, SQL naming it), for other modules' statements. */
export function transactionIdOf(id: Sql): Sql {
  return sql`(SELECT transaction_id FROM payment_requests WHERE id = ${id})`;
}

/** SQL: the id of the environment's request with this transactionId (null: none). */
export function requestIdByTransaction(environmentId: string, transactionId: string): Sql {
  return sql`(SELECT id FROM payment_requests WHERE environment_id = ${environmentId} AND transaction_id = ${transactionId})`;
}

/** A SELECT locking (`FOR UPDATE`) the requests whose ids `ids` selects. */
export function lockRequestsIn(ids: Sql): Sql {
  return sql`SELECT id FROM payment_requests WHERE id IN (${ids}) FOR UPDATE`;
}

/** A SELECT claiming the requests whose ids `ids` selects: locked (`FOR UPDATE`) unless another holds one (`SKIP LOCKED`). */
export function claimRequestsIn(ids: Sql): Sql {
  return sql`SELECT id FROM payment_requests WHERE id IN (${ids}) FOR UPDATE SKIP LOCKED`;
}

/**
 * A SELECT locking (`FOR UPDATE`) the pending requests whose ids `ids` selects, in id order (the
 * order every set-based lock of requests takes, so two of them queue rather than deadlock).
 */
export function lockPendingRequestsIn(ids: Sql): Sql {
  return sql`SELECT id FROM payment_requests WHERE id IN (${ids}) AND status = 'pending' ORDER BY id FOR UPDATE`;
}

/** A SELECT locking the request (`FOR UPDATE`) when it can still be paid: pending and not void. */
export function lockPayableRequest(id: string): Sql {
  return sql`SELECT id FROM payment_requests WHERE id = ${id} AND status = 'pending' AND voided_at IS NULL FOR UPDATE`;
}

/** A SELECT locking the request (`FOR UPDATE`), the first lock of every change to its payments. */
export function lockRequest(id: string): Sql {
  return sql`SELECT id FROM payment_requests WHERE id = ${id} FOR UPDATE`;
}

/**
 * A data-modifying CTE body counting one more payment opened for the request when `condition`
 * holds (pay's opening statement, which holds the request's row lock): its `retryCount`.
 */
export function countPaymentWhen(id: string, condition: Sql): Sql {
  return sql`UPDATE payment_requests SET payment_count = payment_count + 1 WHERE id = ${id} AND ${condition} RETURNING id`;
}

/** A data-modifying CTE body marking the pending request paid when `condition` holds; returns its id. */
export function markPaidWhen(id: string, at: Date, condition: Sql): Sql {
  return sql`UPDATE payment_requests SET status = 'paid', paid_at = ${at}, updated_at = ${at}
          WHERE id = ${id} AND status = 'pending' AND ${condition}
         RETURNING id`;
}

/**
 * A data-modifying CTE body setting the pending request's amount and application fee (an invoice
 * partly paid by hand: what is still due, and the fee on it, `feeStillDue`).
 */
export function setPendingAmount(id: string, amount: number, applicationFee: number | null, at: Date): Sql {
  return sql`UPDATE payment_requests SET amount = ${amount}, application_fee = ${applicationFee}::int, updated_at = ${at}
          WHERE id = ${id} AND status = 'pending'
         RETURNING id`;
}

/**
 * A data-modifying CTE body marking the pending request paid by hand (an invoice's last payment
 * recorded by hand): no money passed through Khoums, so a fee it asked becomes 0.
 */
export function markPaidByHand(id: string, at: Date): Sql {
  return sql`UPDATE payment_requests SET status = 'paid', paid_at = ${at}, updated_at = ${at},
                 application_fee = CASE WHEN application_fee IS NULL THEN NULL ELSE 0 END
          WHERE id = ${id} AND status = 'pending'
         RETURNING id`;
}

/** A data-modifying CTE body making the pending requests whose ids `ids` selects unpayable (`voided_at`). */
export function voidRequestsIn(ids: Sql, at: Date): Sql {
  return sql`UPDATE payment_requests pr SET voided_at = ${at}, updated_at = ${at}
       WHERE pr.id IN (${ids}) AND pr.status = 'pending'`;
}

/*
 * Payment links' parts (docs/payment-links.md): a link's request is paid only through the checkout
 * session it was made with, and is void once that session ends unpaid, so a link's places taken are
 * its requests that are not void. All three read payment_requests_link_idx.
 */

/**
 * A data-modifying CTE body making void the pending payment-link requests among those whose ids
 * `ids` selects (their sessions ended unpaid: expired or cancelled), which frees their places.
 */
export function voidLinkRequestsIn(ids: Sql, at: Sql): Sql {
  return sql`UPDATE payment_requests pr SET voided_at = ${at}, updated_at = ${at}
       WHERE pr.id IN (${ids}) AND pr.payment_link_id IS NOT NULL AND pr.status = 'pending' AND pr.voided_at IS NULL
      RETURNING pr.id`;
}

/**
 * SQL: a link's (`linkId`, SQL naming it) places as `json_build_object(paid, taken)`: its requests
 * paid, and its places taken (paid, or with a session still open). Only a link with `max_payments`
 * needs it, and has at most that many (more only after its limit was lowered). Under the link's row
 * lock, read in a statement of its own: a statement's snapshot must follow the lock for the count to
 * see the previous holder's request.
 */
export function linkPlacesOf(linkId: Sql): Sql {
  return sql`(SELECT json_build_object('paid', count(*) FILTER (WHERE status = 'paid'), 'taken', count(*))
      FROM payment_requests WHERE payment_link_id = ${linkId} AND voided_at IS NULL)`;
}

/** SQL: a link's (`linkId`, SQL naming it) paid requests as `json_build_object(count, amount)`: the record's totals. */
export function linkTotalsOf(linkId: Sql): Sql {
  return sql`(SELECT json_build_object('count', count(*)::int, 'amount', COALESCE(sum(amount), 0)::bigint)
      FROM payment_requests WHERE payment_link_id = ${linkId} AND status = 'paid')`;
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
        INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, payment_link_id, created_at, updated_at)
        VALUES (${pr.id}, ${pr.environmentId}, ${pr.transactionId}, ${pr.amount}, ${pr.phoneNumber}, ${pr.invoiceId}, ${pr.applicationFee}, ${pr.paymentLinkId}, ${pr.createdAt}, ${pr.createdAt})
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
