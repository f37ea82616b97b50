import { ApiProperty } from '@nestjs/swagger';
import { CsvColumn, csvTimeOf } from '../common/http/csv';
import { isoUtc, raw, Sql, sql } from '../database/sql';

export const PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** A payout as its repository reads it (the IBAN whole: the gateway needs it). */
export interface Payout {
  id: string;
  environmentId: string;
  organizationId: string;
  amount: number;
  status: PayoutStatus;
  automatic: boolean;
  bank: string;
  holderName: string;
  iban: string;
  failureReason: string | null;
  bankReference: string | null;
  arrivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export class PayoutDestinationJson {
  @ApiProperty({ description: 'Bank code of the payout account' }) bank!: string;
  @ApiProperty() holderName!: string;
  @ApiProperty({ description: "The last four digits of the account's IBAN" }) ibanLast4!: string;
}

/** The payout record, as the API shows it. */
export class PayoutJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer', description: 'Whole MRU' }) amount!: number;
  @ApiProperty({ enum: PAYOUT_STATUSES }) status!: PayoutStatus;
  @ApiProperty({ type: PayoutDestinationJson }) destination!: PayoutDestinationJson;
  @ApiProperty({ type: String, nullable: true }) failureReason!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The bank's reference of the transfer" })
  bankReference!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) arrivedAt!: string | null;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export function toPayoutJson(p: Payout): PayoutJson {
  return {
    id: p.id,
    amount: p.amount,
    status: p.status,
    destination: { bank: p.bank, holderName: p.holderName, ibanLast4: p.iban.slice(-4) },
    failureReason: p.failureReason,
    bankReference: p.bankReference,
    arrivedAt: p.arrivedAt?.toISOString() ?? null,
    environmentId: p.environmentId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** A payout's columns as `Payout`, of the row aliased `alias` (bigint amounts as numbers). */
export function payoutColumns(alias: string): Sql {
  const a = alias;
  return raw(
    `${a}.id, ${a}.environment_id AS "environmentId", ${a}.organization_id AS "organizationId",
     ${a}.amount::float8 AS amount, ${a}.status, ${a}.automatic, ${a}.bank, ${a}.holder_name AS "holderName",
     ${a}.iban, ${a}.failure_reason AS "failureReason", ${a}.bank_reference AS "bankReference",
     ${a}.arrived_at AS "arrivedAt", ${a}.created_at AS "createdAt", ${a}.updated_at AS "updatedAt"`,
  );
}

/** The payout JSON of the row aliased `alias`, built by the database: a webhook event's `data`. */
export function payoutJsonSql(alias: string): Sql {
  const a = alias;
  return sql`jsonb_build_object(
    'id', ${raw(a)}.id, 'amount', ${raw(a)}.amount, 'status', ${raw(a)}.status,
    'destination', jsonb_build_object('bank', ${raw(a)}.bank, 'holderName', ${raw(a)}.holder_name,
                                      'ibanLast4', right(${raw(a)}.iban, 4)),
    'failureReason', ${raw(a)}.failure_reason, 'bankReference', ${raw(a)}.bank_reference,
    'arrivedAt', ${isoUtc(`${a}.arrived_at`)}, 'environmentId', ${raw(a)}.environment_id,
    'createdAt', ${isoUtc(`${a}.created_at`)}, 'updatedAt', ${isoUtc(`${a}.updated_at`)})`;
}

/** The columns of the payouts list as CSV. */
export const PAYOUT_CSV_COLUMNS: readonly CsvColumn<PayoutJson>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'createdAt', value: (p) => csvTimeOf(p.createdAt) },
  { header: 'amount', value: (p) => p.amount },
  { header: 'status', value: (p) => p.status },
  { header: 'bank', value: (p) => p.destination.bank },
  { header: 'holderName', value: (p) => p.destination.holderName },
  { header: 'ibanLast4', value: (p) => p.destination.ibanLast4 },
  { header: 'failureReason', value: (p) => p.failureReason },
  { header: 'bankReference', value: (p) => p.bankReference },
  { header: 'arrivedAt', value: (p) => csvTimeOf(p.arrivedAt) },
];
