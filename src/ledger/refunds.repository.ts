import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { keysetBatches } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, raw, sql } from '../database/sql';
import { transactionIdOf } from '../payment-requests/payment-requests.fragments';
import { insertEventWhen } from '../webhooks/outbox';
import { Refund, RefundOutcome, RefundStatus, toRefundJson } from './refund';

/** A refund's columns as `Refund`. */
const REFUND_COLUMNS = sql`r.id, r.environment_id AS "environmentId", r.organization_id AS "organizationId",
  r.payment_id AS "paymentId", r.payment_request_id AS "paymentRequestId",
  ${transactionIdOf(raw('r.payment_request_id'))} AS "transactionId", r.amount, r.status, r.reason,
  r.failure_reason AS "failureReason", r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;

/**
 * Refunds: each with its `refund` balance transaction (and `refund_failure` when it fails) and its
 * events, written in the statement that makes the change. The balance and its transactions are
 * LedgerRepository's; the refunds' rules (how much, when the bank is called) are RefundsService's.
 */
@Injectable()
export class RefundsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records a new `pending` refund with its `refund` balance transaction (the amount debited at
   * once, available at once; the fee is not returned) and `refund-created`, in one statement.
   */
  async insert(refund: Refund): Promise<void> {
    await this.db.exec(sql`
      WITH created AS (
        INSERT INTO refunds (id, environment_id, organization_id, payment_id, payment_request_id, amount, status,
                             reason, next_check_at, created_at, updated_at)
        VALUES (${refund.id}, ${refund.environmentId}, ${refund.organizationId}, ${refund.paymentId},
                ${refund.paymentRequestId}, ${refund.amount}, 'pending', ${refund.reason}, ${refund.createdAt},
                ${refund.createdAt}, ${refund.createdAt})
        RETURNING id
      ), debit AS (
        INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                          environment_id, organization_id, created_at)
        SELECT gen_random_uuid(), 'refund', ${-refund.amount}::int, 0, ${-refund.amount}::int, id, ${refund.paymentId},
               ${refund.createdAt}, ${refund.environmentId}, ${refund.organizationId}, ${refund.createdAt}
          FROM created
      ), event AS (${insertEventWhen('created', {
        organizationId: refund.organizationId,
        environmentId: refund.environmentId,
        kind: 'refund-created',
        data: toRefundJson(refund),
        createdAt: refund.createdAt,
      })})
      SELECT 1`);
  }

  /**
   * Ends a pending refund as the bank said, with `refund-updated`; a failed one credits its amount
   * back (`refund_failure`). Only from `pending`: returns the refund as it now is, or undefined
   * when it was no longer pending (someone settled it first; nothing changed).
   */
  async settle(refund: Refund, outcome: RefundOutcome): Promise<Refund | undefined> {
    const at = new Date();
    const failed = outcome.status === 'failed';
    const settled: Refund = {
      id: refund.id,
      environmentId: refund.environmentId,
      organizationId: refund.organizationId,
      paymentId: refund.paymentId,
      paymentRequestId: refund.paymentRequestId,
      transactionId: refund.transactionId,
      amount: refund.amount,
      status: outcome.status,
      reason: refund.reason,
      failureReason: failed ? outcome.reason : null,
      createdAt: refund.createdAt,
      updatedAt: at,
    };
    const row = await this.db.one<{ n: number }>(sql`
      WITH settled AS (
        UPDATE refunds SET status = ${outcome.status}, failure_reason = ${settled.failureReason},
               bank_reference = ${outcome.status === 'succeeded' ? outcome.bankReference : null}, updated_at = ${at}
         WHERE id = ${refund.id} AND status = 'pending'
        RETURNING id, amount, payment_id, environment_id, organization_id
      ), credit AS (
        INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                          environment_id, organization_id, created_at)
        SELECT gen_random_uuid(), 'refund_failure', amount, 0, amount, id, payment_id, ${at}, environment_id,
               organization_id, ${at}
          FROM settled WHERE ${failed}::boolean
      ), event AS (${insertEventWhen('settled', {
        organizationId: refund.organizationId,
        environmentId: refund.environmentId,
        kind: 'refund-updated',
        data: toRefundJson(settled),
        createdAt: at,
      })})
      SELECT count(*)::int AS n FROM settled`);
    return row?.n === 1 ? settled : undefined;
  }

  find(environmentId: string, id: string): Promise<Refund | undefined> {
    return this.db.one<Refund>(
      sql`SELECT ${REFUND_COLUMNS} FROM refunds r WHERE r.id = ${id} AND r.environment_id = ${environmentId}`,
    );
  }

  /** A refund by id alone (the refunds job, which claims across environments). */
  findById(id: string): Promise<Refund | undefined> {
    return this.db.one<Refund>(sql`SELECT ${REFUND_COLUMNS} FROM refunds r WHERE r.id = ${id}`);
  }

  /** Newest first; filters combine. */
  async list(
    environmentId: string,
    filter: { paymentId?: string; status?: RefundStatus },
    page: Page,
  ): Promise<{ rows: Refund[]; total: number }> {
    const where = [sql`r.environment_id = ${environmentId}`];
    if (filter.paymentId !== undefined) where.push(sql`r.payment_id = ${filter.paymentId}`);
    if (filter.status !== undefined) where.push(sql`r.status = ${filter.status}`);
    return pageRows<Refund>(
      this.db,
      {
        select: REFUND_COLUMNS,
        from: sql`FROM refunds r WHERE ${and(where)}`,
        orderBy: sql`r.created_at DESC, r.id DESC`,
      },
      page,
    );
  }

  /** Every refund the list's filters select, newest first, in batches (the CSV export). */
  listAll(
    environmentId: string,
    filter: { paymentId?: string; status?: RefundStatus },
  ): AsyncGenerator<Refund[]> {
    const where = [sql`r.environment_id = ${environmentId}`];
    if (filter.paymentId !== undefined) where.push(sql`r.payment_id = ${filter.paymentId}`);
    if (filter.status !== undefined) where.push(sql`r.status = ${filter.status}`);
    return keysetBatches<Refund>(this.db, {
      select: REFUND_COLUMNS,
      from: sql`FROM refunds r`,
      alias: 'r',
      where,
    });
  }

  /** Whole MRU of a payment's succeeded refunds. */
  async succeededTotal(paymentId: string): Promise<number> {
    const row = await this.db.one<{ total: number }>(sql`
      SELECT COALESCE(sum(amount), 0)::float8 AS total FROM refunds WHERE payment_id = ${paymentId} AND status = 'succeeded'`);
    return row!.total;
  }

  /**
   * Claims up to `limit` refunds pending for at least `minAgeMs` (a bank that answered "pending",
   * was unavailable, or a process that died around the call), pushing their next check back by
   * `retryAfterMs`: concurrent jobs never claim one twice at once.
   */
  async claimPending(minAgeMs: number, limit: number, retryAfterMs: number): Promise<string[]> {
    const rows = await this.db.many<{ id: string }>(sql`
      WITH due AS (
        SELECT id FROM refunds
         WHERE status = 'pending' AND next_check_at <= now() AND created_at <= now() - ${minAgeMs}::int * interval '1 millisecond'
         ORDER BY next_check_at
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED
      )
      UPDATE refunds r SET next_check_at = now() + ${retryAfterMs}::int * interval '1 millisecond'
        FROM due WHERE r.id = due.id
      RETURNING r.id`);
    return rows.map((r) => r.id);
  }
}
