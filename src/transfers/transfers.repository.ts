import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { pageRows } from '../database/paging';
import { and, empty, prepared, raw, Sql, sql } from '../database/sql';
import type { SettlementGate } from '../payments/settlement-types';
import { insertEventPerRow, insertEventWhen, NewEvent } from '../webhooks/outbox';
import { toTransferJson, Transfer, TRANSFER_COLUMNS, TransferStatus } from './transfer';

/** A new transfer as it is stored, its environment found (null: a live transfer to a wallet of no environment). */
export type NewTransfer = Transfer & { status: 'unmatched'; paymentId: null; paymentRequestId: null };

/** Transfers: every read of the API filters by environment. */
@Injectable()
export class TransfersRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores a new transfer as `unmatched` with its `transfer-received` event (none for a transfer of
   * no environment), in one statement: false when it was already stored (once per bank reference;
   * live: per receiving bank, Sandbox: per environment and receiving bank; a concurrent insert of
   * the same reference waits for the other's commit, then does nothing).
   */
  async storeUnmatched(transfer: NewTransfer): Promise<boolean> {
    const received = receivedEvent(transfer);
    const row = await this.db.one<{ stored: number }>(
      prepared(sql`WITH transfer_stored AS (${insertTransfer(transfer, sql`'unmatched'`, sql`NULL::uuid`, sql`NULL::uuid`)})
        ${received ? sql`, transfer_received AS (${insertEventWhen('transfer_stored', received)})` : empty}
        SELECT count(*)::int AS stored FROM transfer_stored`),
    );
    return row!.stored === 1;
  }

  /**
   * The settlement gate (SettlementGate) of a new transfer of an environment with one candidate
   * payment: stored as `matched` with that payment when it can be settled (the payment still
   * pending, its request payable, both locked), else as `unmatched`; its `transfer-received` event
   * as stored; the payment settled only when the transfer was matched (not when it was already
   * stored). The gate's value: the status stored, or null when it was already stored.
   */
  matchGate(
    transfer: NewTransfer,
    candidate: { paymentId: string; paymentRequestId: string },
  ): SettlementGate {
    const ifPayable = (value: Sql) => sql`CASE WHEN EXISTS (SELECT 1 FROM payable) THEN ${value} END`;
    // One event, its record as stored: the unmatched record with the stored status and payment.
    const received = receivedEvent(transfer)!;
    return {
      ctes: sql`, transfer_stored AS (${insertTransfer(
        transfer,
        sql`COALESCE(${ifPayable(sql`'matched'`)}, 'unmatched')`,
        ifPayable(sql`${candidate.paymentId}::uuid`),
        ifPayable(sql`${candidate.paymentRequestId}::uuid`),
      )}), transfer_received AS (${insertEventPerRow(raw('transfer_stored s'), {
        organizationId: sql`${received.organizationId}::uuid`,
        environmentId: sql`${received.environmentId}::uuid`,
        kind: received.kind,
        data: sql`${JSON.stringify(received.data)}::jsonb || jsonb_build_object('status', s.status,
                  'paymentId', s.payment_id, 'paymentRequestId', s.payment_request_id)`,
        createdAt: transfer.createdAt,
      })})`,
      when: sql`EXISTS (SELECT 1 FROM transfer_stored WHERE status = 'matched')`,
      select: sql`(SELECT status FROM transfer_stored)`,
    };
  }

  /** The transfer stored under this new one's bank reference (see `storeUnmatched`). */
  byReference(t: NewTransfer): Promise<Transfer | undefined> {
    const where = t.live ? sql`t.live` : sql`NOT t.live AND t.environment_id = ${t.environmentId}`;
    return this.db.one<Transfer>(sql`
      SELECT ${TRANSFER_COLUMNS} FROM transfers t
       WHERE t.receiving_bank = ${t.receivingBank} AND t.bank_reference = ${t.bankReference} AND ${where}`);
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

/** The insert of a new transfer (a data-modifying CTE body returning its status), nothing when its bank reference is stored. */
function insertTransfer(t: NewTransfer, status: Sql, paymentId: Sql, paymentRequestId: Sql): Sql {
  const conflict = t.live
    ? sql`(receiving_bank, bank_reference) WHERE live`
    : sql`(environment_id, receiving_bank, bank_reference) WHERE NOT live`;
  return sql`INSERT INTO transfers AS t (id, environment_id, organization_id, live, bank_reference, receiving_bank,
                                  receiving_phone, payer_phone, payer_app, amount, memo, received_at, status,
                                  payment_id, payment_request_id, created_at, updated_at)
      VALUES (${t.id}, ${t.environmentId}::uuid, ${t.organizationId}::uuid, ${t.live}, ${t.bankReference}, ${t.receivingBank},
              ${t.receivingPhone}, ${t.payerPhone}, ${t.payerApp}, ${t.amount}, ${t.memo}, ${t.receivedAt}::timestamptz,
              ${status}, ${paymentId}, ${paymentRequestId}, ${t.createdAt}::timestamptz, ${t.updatedAt}::timestamptz)
      ON CONFLICT ${conflict} DO NOTHING
      RETURNING t.status, t.payment_id, t.payment_request_id`;
}

/** `transfer-received` with the transfer as stored; none for a transfer of no environment. */
function receivedEvent(t: Transfer): NewEvent | undefined {
  if (t.environmentId === null || t.organizationId === null) return undefined;
  return {
    organizationId: t.organizationId,
    environmentId: t.environmentId,
    kind: 'transfer-received',
    data: toTransferJson(t),
    createdAt: t.createdAt,
  };
}
