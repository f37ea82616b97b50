import { CsvColumn, csvTimeOf } from '../common/http/csv';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { GimtelApp } from './payment-methods.defaults';
import type { EnvironmentKind } from '../organizations/tenant';
import { PAYMENT_METHOD_TYPES, type PaymentMethodType } from './banks/bank';

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed'] as const;

/** `push`: the bank app is asked to debit the customer; `transfer`: the customer sends the money (GIMTEL). */
export const PAYMENT_FLOWS = ['push', 'transfer'] as const;
export type PaymentFlow = (typeof PAYMENT_FLOWS)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A bank app enabled (or not) for one environment. Names and the enabled set are data. */
export interface PaymentMethod {
  id: string;
  environmentId: string;
  type: PaymentMethodType;
  name: string;
  requiresPassCode: boolean;
  flow: PaymentFlow;
  code: string;
  enabled: boolean;
  /** Transfer methods: the merchant's receiving wallet (null until set; Sandbox's is preset). */
  receivingBank: string | null;
  receivingPhone: string | null;
  /** Transfer methods, as listed: the member apps a customer may pay from. */
  apps?: GimtelApp[];
  position: number;
  createdAt: Date;
  updatedAt: Date;
}

export class PaymentMethodConfigJson {
  @ApiProperty() code!: string;
}

/** A member app of the national switch a customer may pay a transfer from. */
export class GimtelAppJson {
  @ApiProperty({ example: 'bankily' }) code!: string;
  @ApiProperty({ example: 'Bankily' }) name!: string;
}

/** The payment method record, as the API shows it. */
export class PaymentMethodJson {
  @ApiProperty({ format: 'uuid', description: 'The paymentMethodId (configurationId) used to pay' })
  id!: string;
  @ApiProperty({ enum: PAYMENT_METHOD_TYPES }) type!: PaymentMethodType;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Bankily: the customer must give a pass code' }) requiresPassCode!: boolean;
  @ApiProperty({
    enum: PAYMENT_FLOWS,
    description: 'push: the bank app is asked to debit the customer; transfer: the customer sends the money',
  })
  flow!: PaymentFlow;
  @ApiProperty({ type: PaymentMethodConfigJson }) config!: PaymentMethodConfigJson;
  @ApiPropertyOptional({
    type: [GimtelAppJson],
    description: 'Transfer methods: the apps a customer may pay from',
  })
  apps?: GimtelAppJson[];
  @ApiPropertyOptional({ description: "Transfer methods: the receiving wallet's bank" })
  receivingBank?: string;
  @ApiPropertyOptional({ description: 'Transfer methods: the receiving wallet, 8-digit local number' })
  receivingPhone?: string;
  @ApiProperty({ format: 'uuid', description: "The key's organization" }) organizationId!: string;
  @ApiProperty({ description: 'true in Sandbox' }) isTestingMode!: boolean;
}

/** One payment method, as GET /configuration/:id shows it. */
export class PaymentMethodDetailJson extends PaymentMethodJson {
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** Whose methods these are: the organization and the kind of environment that enables them. */
export interface MethodScope {
  organizationId: string;
  environment: EnvironmentKind;
}

export function toPaymentMethodJson(m: PaymentMethod, scope: MethodScope): PaymentMethodJson {
  return {
    id: m.id,
    type: m.type,
    name: m.name,
    requiresPassCode: m.requiresPassCode,
    flow: m.flow,
    config: { code: m.code },
    organizationId: scope.organizationId,
    isTestingMode: scope.environment === 'sandbox',
    ...(m.flow === 'transfer'
      ? { apps: m.apps ?? [], receivingBank: m.receivingBank ?? '', receivingPhone: m.receivingPhone ?? '' }
      : {}),
  };
}

export function toPaymentMethodDetailJson(m: PaymentMethod, scope: MethodScope): PaymentMethodDetailJson {
  return {
    ...toPaymentMethodJson(m, scope),
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** One attempt to pay a payment request through a bank app. Never holds the pass code. */
export interface Payment {
  id: string;
  environmentId: string;
  paymentRequestId: string;
  paymentMethodId: string;
  amount: number;
  phoneNumber: string;
  status: PaymentStatus;
  referenceId: string | null;
  failureReason: string | null;
  completedAt: Date | null;
  /** Transfer payments: until when a transfer from the payer is awaited (2 minutes of grace after). Null otherwise. */
  claimExpiresAt: Date | null;
  /** Transfer payments: the wallet the payer was told to send to. Null otherwise. */
  receivingBank: string | null;
  receivingPhone: string | null;
  /** The payout that paid it out (read with the records the API shows; null until then). */
  payoutId?: string | null;
  /** Whole MRU refunded or being refunded (pending and succeeded refunds). */
  refundedAmount: number;
  nextCheckAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** The payment record, as the API and webhook events show it. Never the pass code. */
export class PaymentJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) paymentRequestId!: string;
  @ApiProperty({ description: "The payment request's transactionId" }) transactionId!: string;
  @ApiProperty({ type: 'integer', description: 'Whole MRU' }) amount!: number;
  @ApiProperty({ format: 'uuid', description: 'The payment method id' }) configurationId!: string;
  @ApiProperty({ description: '8-digit local number' }) phoneNumber!: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) status!: PaymentStatus;
  @ApiProperty({ type: String, nullable: true, description: "The bank's reference" }) referenceId!:
    string | null;
  @ApiProperty({ type: String, nullable: true }) failureReason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The payout that paid it out (from its balance transaction); null until then',
  })
  payoutId!: string | null;
  @ApiProperty({
    type: 'integer',
    description: 'Whole MRU refunded or being refunded (a failed refund gives its amount back)',
  })
  refundedAmount!: number;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null: the pass code is never kept' })
  passCode!: null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Always null (Khoums keeps no payment metadata)',
  })
  metadata!: null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Always null' })
  lastSeenAt!: null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Transfer payments: until when the transfer is awaited; null for the other methods',
  })
  claimExpiresAt!: string | null;
}

/** What a simulated transfer did: completed the payment, failed it, or found it already so. */
export const TRANSFER_OUTCOMES = ['matched', 'unmatched', 'skipped'] as const;
export type TransferOutcome = (typeof TRANSFER_OUTCOMES)[number];

/** A payment's status alone (GET /payment/:id/status). */
export class PaymentStatusJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) status!: PaymentStatus;
  @ApiProperty({ type: String, nullable: true, description: "The bank's reference" }) referenceId!:
    string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Transfer payments: until when the transfer is awaited; null for the other methods',
  })
  claimExpiresAt!: string | null;
}

export function toPaymentJson(p: Payment, transactionId: string): PaymentJson {
  return {
    id: p.id,
    paymentRequestId: p.paymentRequestId,
    transactionId,
    amount: p.amount,
    configurationId: p.paymentMethodId,
    phoneNumber: p.phoneNumber,
    status: p.status,
    referenceId: p.referenceId,
    failureReason: p.failureReason,
    completedAt: p.completedAt?.toISOString() ?? null,
    payoutId: p.payoutId ?? null,
    refundedAmount: p.refundedAmount,
    environmentId: p.environmentId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    passCode: null,
    metadata: null,
    lastSeenAt: null,
    claimExpiresAt: p.claimExpiresAt?.toISOString() ?? null,
  };
}

/** A `payments` row read with plain SQL (snake_case columns). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a raw pg row: each column is typed by the assignment below
export function paymentFromRow(r: Record<string, any>): Payment {
  return {
    id: r.id,
    environmentId: r.environment_id,
    paymentRequestId: r.payment_request_id,
    paymentMethodId: r.payment_method_id,
    amount: r.amount,
    phoneNumber: r.phone_number,
    status: r.status,
    referenceId: r.reference_id,
    failureReason: r.failure_reason,
    completedAt: r.completed_at,
    claimExpiresAt: r.claim_expires_at ?? null,
    receivingBank: r.receiving_bank ?? null,
    receivingPhone: r.receiving_phone ?? null,
    payoutId: r.payout_id ?? null,
    refundedAmount: r.refunded_amount ?? 0,
    nextCheckAt: r.next_check_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A `payment_methods` row read with plain SQL. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a raw pg row: each column is typed by the assignment below
export function paymentMethodFromRow(r: Record<string, any>): PaymentMethod {
  return {
    id: r.id,
    environmentId: r.environment_id,
    type: r.type,
    name: r.name,
    requiresPassCode: r.requires_pass_code,
    flow: r.flow,
    code: r.code,
    enabled: r.enabled,
    receivingBank: r.receiving_bank ?? null,
    receivingPhone: r.receiving_phone ?? null,
    position: r.position,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A payment as its CSV row shows it: with its bank app's name (what a spreadsheet reader knows it by). */
export type PaymentCsvRow = PaymentJson & { paymentMethod: string | null };

/** The columns of the payments list as CSV. */
export const PAYMENT_CSV_COLUMNS: readonly CsvColumn<PaymentCsvRow>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'createdAt', value: (p) => csvTimeOf(p.createdAt) },
  { header: 'transactionId', value: (p) => p.transactionId },
  { header: 'paymentRequestId', value: (p) => p.paymentRequestId },
  { header: 'amount', value: (p) => p.amount },
  { header: 'status', value: (p) => p.status },
  { header: 'paymentMethod', value: (p) => p.paymentMethod },
  { header: 'phoneNumber', value: (p) => p.phoneNumber },
  { header: 'referenceId', value: (p) => p.referenceId },
  { header: 'failureReason', value: (p) => p.failureReason },
  { header: 'completedAt', value: (p) => csvTimeOf(p.completedAt) },
  { header: 'payoutId', value: (p) => p.payoutId },
];

/** `GimtelInstructions.kind`, as Moosyl's generated clients know it (their enum has this one value). */
export const GIMTEL_INSTRUCTIONS_KIND = 'gimtel_transfer';

/** What a customer needs to pay a transfer payment (Moosyl's `GimtelInstructions`). */
export class GimtelInstructionsJson {
  @ApiProperty({ enum: [GIMTEL_INSTRUCTIONS_KIND] }) kind!: typeof GIMTEL_INSTRUCTIONS_KIND;
  @ApiProperty({ description: "The merchant's receiving wallet: 8-digit local number" })
  receivingPhone!: string;
  @ApiProperty({ description: 'The bank of the receiving wallet (e.g. BANKILY)' }) receivingBank!: string;
  @ApiProperty({ type: 'integer', description: 'Whole MRU to send, exactly' }) amount!: number;
  @ApiProperty({ description: 'The wallet the transfer must come from: 8-digit local number' })
  payerPhone!: string;
  @ApiProperty({ format: 'uuid' }) paymentId!: string;
  @ApiProperty({ format: 'date-time', description: 'Send before this time (2 minutes of grace follow)' })
  claimExpiresAt!: string;
}

/** A transfer payment's instructions; null for any other payment. */
export function instructionsOf(
  p: Pick<Payment, 'id' | 'amount' | 'phoneNumber' | 'claimExpiresAt' | 'receivingBank' | 'receivingPhone'>,
): GimtelInstructionsJson | null {
  if (!p.claimExpiresAt || !p.receivingBank || !p.receivingPhone) return null;
  return {
    kind: GIMTEL_INSTRUCTIONS_KIND,
    receivingPhone: p.receivingPhone,
    receivingBank: p.receivingBank,
    amount: p.amount,
    payerPhone: p.phoneNumber,
    paymentId: p.id,
    claimExpiresAt: p.claimExpiresAt.toISOString(),
  };
}
