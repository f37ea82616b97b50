import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { pageRows } from '../database/paging';
import { and, sql } from '../database/sql';
import { environmentOfWallet } from '../payments/payments.fragments';
import { insertEvent, insertEventWhen, NewEvent } from '../webhooks/outbox';
import { IncomingTransfer, toTransferJson, Transfer, TRANSFER_COLUMNS, TransferStatus } from './transfer';

/**
 * Where a new transfer belongs: a live one to the environment whose wallet it reached (found by the
 * insert itself), a Sandbox one to the environment that injected it.
 */
export type TransferScope = { live: true } | { live: false; environmentId: string; organizationId: string };

/** Transfers: every read of the API filters by environment. */
@Injectable()
export class TransfersRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores a new transfer as `unmatched`, once per bank reference (live: per receiving bank;
   * Sandbox: per environment and receiving bank). A live transfer takes the environment of its
   * receiving wallet (`environmentOfWallet`: none when no environment, or several, have it).
   * Undefined when it was already stored: a concurrent insert of the same reference waits for the
   * other's commit, then does nothing.
   */
  insert(transfer: IncomingTransfer, scope: TransferScope, at: Date): Promise<Transfer | undefined> {
    const conflict = scope.live
      ? sql`(receiving_bank, bank_reference) WHERE live`
      : sql`(environment_id, receiving_bank, bank_reference) WHERE NOT live`;
    const owner = scope.live
      ? environmentOfWallet(transfer.receivingBank, transfer.receivingPhone)
      : sql`(SELECT ${scope.environmentId}::uuid AS environment_id, ${scope.organizationId}::uuid AS organization_id)`;
    return this.db.one<Transfer>(sql`
      INSERT INTO transfers AS t (id, environment_id, organization_id, live, bank_reference, receiving_bank,
                                  receiving_phone, payer_phone, payer_app, amount, memo, received_at, status,
                                  created_at, updated_at)
      SELECT ${randomUUID()}, w.environment_id, w.organization_id, ${scope.live},
             ${transfer.bankReference}, ${transfer.receivingBank}, ${transfer.receivingPhone},
             ${transfer.payerPhone}, ${transfer.payerApp}, ${transfer.amount}, ${transfer.memo ?? null},
             ${transfer.receivedAt}::timestamptz, 'unmatched', ${at}::timestamptz, ${at}::timestamptz
        FROM ${owner} w
      ON CONFLICT ${conflict} DO NOTHING
      RETURNING ${TRANSFER_COLUMNS}`);
  }

  /** The transfer stored under this bank reference (see `insert`). */
  byReference(transfer: IncomingTransfer, scope: TransferScope): Promise<Transfer | undefined> {
    const where = scope.live ? sql`t.live` : sql`NOT t.live AND t.environment_id = ${scope.environmentId}`;
    return this.db.one<Transfer>(sql`
      SELECT ${TRANSFER_COLUMNS} FROM transfers t
       WHERE t.receiving_bank = ${transfer.receivingBank} AND t.bank_reference = ${transfer.bankReference} AND ${where}`);
  }

  /**
   * Moves an unmatched transfer to `status` (matched or assigned: with the payment it completed),
   * under its row lock; undefined when it was no longer unmatched.
   */
  settle(
    id: string,
    status: Exclude<TransferStatus, 'unmatched'>,
    payment: { paymentId: string; paymentRequestId: string } | null,
    at: Date,
  ): Promise<Transfer | undefined> {
    return this.db.one<Transfer>(sql`
      UPDATE transfers t SET status = ${status}, payment_id = ${payment?.paymentId ?? null},
             payment_request_id = ${payment?.paymentRequestId ?? null}, updated_at = ${at}
       WHERE t.id = ${id} AND t.status = 'unmatched'
      RETURNING ${TRANSFER_COLUMNS}`);
  }

  /**
   * Records `transfer-received` for a transfer of an environment just stored by this transaction,
   * with its record; when `matched` names the payment it completed, in the same statement the
   * transfer becomes `matched` with it (no other transaction can see the row yet, so nothing can
   * have moved it) and the event shows it so.
   */
  async recordReceived(
    stored: Transfer & { environmentId: string; organizationId: string },
    matched: { paymentId: string; paymentRequestId: string } | null,
    at: Date,
  ): Promise<Transfer> {
    const transfer: Transfer = matched ? { ...stored, status: 'matched', ...matched, updatedAt: at } : stored;
    const event: NewEvent = {
      organizationId: stored.organizationId,
      environmentId: stored.environmentId,
      kind: 'transfer-received',
      data: toTransferJson(transfer),
      createdAt: stored.createdAt,
    };
    await this.db.exec(
      matched
        ? sql`WITH moved AS (
                UPDATE transfers SET status = 'matched', payment_id = ${matched.paymentId},
                       payment_request_id = ${matched.paymentRequestId}, updated_at = ${at}
                 WHERE id = ${stored.id} AND status = 'unmatched'
                RETURNING id)
              ${insertEventWhen('moved', event)}`
        : insertEvent(event),
    );
    return transfer;
  }

  byId(environmentId: string, id: string): Promise<Transfer | undefined> {
    return this.db.one<Transfer>(
      sql`SELECT ${TRANSFER_COLUMNS} FROM transfers t WHERE t.id = ${id} AND t.environment_id = ${environmentId}`,
    );
  }

  /** A transfer of the environment locked until the transaction ends (assign, return). */
  lock(environmentId: string, id: string): Promise<Transfer | undefined> {
    return this.db.one<Transfer>(sql`
      SELECT ${TRANSFER_COLUMNS} FROM transfers t WHERE t.id = ${id} AND t.environment_id = ${environmentId}
         FOR UPDATE`);
  }

  /** Newest first. */
  list(environmentId: string, filter: { status?: TransferStatus }, page: Page) {
    const where = [sql`t.environment_id = ${environmentId}`];
    if (filter.status !== undefined) where.push(sql`t.status = ${filter.status}`);
    return pageRows<Transfer>(
      this.db,
      {
        select: TRANSFER_COLUMNS,
        from: sql`FROM transfers t WHERE ${and(where)}`,
        orderBy: sql`t.created_at DESC, t.id DESC`,
      },
      page,
    );
  }
}
