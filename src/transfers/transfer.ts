import { ApiProperty } from '@nestjs/swagger';
import { raw } from '../database/sql';

/*
 * A transfer: money a customer sent from a member app of the national switch (GIMTEL) to a
 * merchant's receiving wallet, as the receiving bank reported it (docs/transfers.md).
 */

export const TRANSFER_STATUSES = ['matched', 'unmatched', 'assigned', 'returned'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** What the receiving bank tells of one transfer (a notification or a poll), or what Sandbox injects. */
export interface IncomingTransfer {
  /** The bank's reference of the transfer: with the receiving bank, its idempotency key. */
  bankReference: string;
  receivingBank: string;
  receivingPhone: string;
  payerPhone: string;
  /** The member app the payer sent from (a code of the apps list, or what the bank says). */
  payerApp: string;
  amount: number;
  receivedAt: Date;
  memo?: string | null;
}

export interface Transfer {
  id: string;
  /** Null: a live transfer to a wallet no Production environment (or more than one) has enabled. */
  environmentId: string | null;
  organizationId: string | null;
  /** false: injected in Sandbox. */
  live: boolean;
  bankReference: string;
  receivingBank: string;
  receivingPhone: string;
  payerPhone: string;
  payerApp: string;
  amount: number;
  memo: string | null;
  receivedAt: Date;
  status: TransferStatus;
  paymentId: string | null;
  paymentRequestId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A transfer's columns, aliased to the row's fields (table alias `t`). */
export const TRANSFER_COLUMNS =
  raw(`t.id, t.environment_id AS "environmentId", t.organization_id AS "organizationId",
  t.live, t.bank_reference AS "bankReference", t.receiving_bank AS "receivingBank",
  t.receiving_phone AS "receivingPhone", t.payer_phone AS "payerPhone", t.payer_app AS "payerApp", t.amount,
  t.memo, t.received_at AS "receivedAt", t.status, t.payment_id AS "paymentId",
  t.payment_request_id AS "paymentRequestId", t.created_at AS "createdAt", t.updated_at AS "updatedAt"`);

/** The transfer record, as the API and the `transfer-received` event show it. */
export class TransferJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: "The receiving bank's reference of the transfer" }) bankReference!: string;
  @ApiProperty({ description: 'The bank of the receiving wallet (e.g. BANKILY)' }) receivingBank!: string;
  @ApiProperty({ description: 'The receiving wallet: 8-digit local number' }) receivingPhone!: string;
  @ApiProperty({ description: "The payer's wallet: 8-digit local number" }) payerPhone!: string;
  @ApiProperty({ description: 'The member app the payer sent from' }) payerApp!: string;
  @ApiProperty({ type: 'integer', description: 'Whole MRU' }) amount!: number;
  @ApiProperty({ type: String, nullable: true }) memo!: string | null;
  @ApiProperty({ format: 'date-time' }) receivedAt!: string;
  @ApiProperty({
    enum: TRANSFER_STATUSES,
    description:
      'matched: it completed the pending payment it was for; unmatched: waiting in the inbox; assigned: the merchant made it pay a request; returned: the merchant sent it back',
  })
  status!: TransferStatus;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The payment it completed' })
  paymentId!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The payment request it paid' })
  paymentRequestId!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export function toTransferJson(t: Transfer): TransferJson {
  return {
    id: t.id,
    bankReference: t.bankReference,
    receivingBank: t.receivingBank,
    receivingPhone: t.receivingPhone,
    payerPhone: t.payerPhone,
    payerApp: t.payerApp,
    amount: t.amount,
    memo: t.memo,
    receivedAt: t.receivedAt.toISOString(),
    status: t.status,
    paymentId: t.paymentId,
    paymentRequestId: t.paymentRequestId,
    createdAt: t.createdAt.toISOString(),
  };
}
