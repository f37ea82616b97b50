import { StreamableFile } from '@nestjs/common';
import { csvFile, mapBatches } from '../common/http/csv';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import type { KeysetPage, KeysetQuery } from '../database/keyset';
import { assertAmount, assertPhone } from '../common/validation/rules';
import { applicationFeeOf } from './application-fee';
import { IdempotencyKeyRecords } from '../idempotency/idempotency-key-records';
import type { RequestKey } from '../idempotency/request-key';
import type { CreatePaymentRequestDto, ListPaymentRequestsQuery } from './dto/payment-request.dto';
import {
  PAYMENT_REQUEST_CSV_COLUMNS,
  PaymentRequest,
  PaymentRequestJson,
  toPaymentRequestJson,
} from './payment-request';
import { PaymentRequestError, paymentRequestError } from './payment-requests.errors';
import type { PaymentRequestSearch } from './payment-request-search';
import { PaymentRequestListFilter, PaymentRequestsRepository } from './payment-requests.repository';

export interface NewPaymentRequest {
  transactionId: string;
  amount: number;
  phoneNumber: string | null;
  invoiceId?: string | null;
  applicationFee?: number | null;
  /** The payment link it is made for (docs/payment-links.md). */
  paymentLinkId?: string | null;
}

@Injectable()
export class PaymentRequestsService {
  constructor(
    private readonly repo: PaymentRequestsRepository,
    private readonly keys: IdempotencyKeyRecords,
  ) {}

  /**
   * Creates the request with its `payment-request-created` event: one statement, one round trip,
   * also with an Idempotency-Key (claimed and recorded by that statement, with the answer
   * `{ data }` the controller sends).
   */
  async create(tenant: Tenant, dto: CreatePaymentRequestDto, key?: RequestKey): Promise<PaymentRequestJson> {
    assertAmount(dto.amount);
    const phoneNumber = dto.phoneNumber === undefined ? null : assertPhone(dto.phoneNumber);
    const applicationFee = applicationFeeOf(tenant, dto.applicationFee, dto.amount);
    const pr = newPaymentRequest(tenant, {
      transactionId: dto.transactionId,
      amount: dto.amount,
      phoneNumber,
      applicationFee,
    });
    const requestJson = toPaymentRequestJson(pr);
    const created = key
      ? await this.keys.writeOnce(
          key,
          { status: 200, body: JSON.stringify({ data: requestJson }) },
          (w) => this.repo.insertKeyed(pr, tenant.organizationId, w),
          (row) => row.id !== null,
        )
      : await this.repo.insert(pr, tenant.organizationId);
    if (!created) throw paymentRequestError(PaymentRequestError.TransactionIdTaken, dto.transactionId);
    return requestJson;
  }

  /**
   * The insert behind `create`, for other modules too (checkout, invoices), in the caller's
   * transaction when there is one. Input is already validated. Null, recording nothing, when the
   * transactionId is taken.
   */
  async insert(
    tenant: Pick<Tenant, 'organizationId' | 'environmentId'>,
    input: NewPaymentRequest,
  ): Promise<PaymentRequest | null> {
    const pr = newPaymentRequest(tenant, input);
    return (await this.repo.insert(pr, tenant.organizationId)) ? pr : null;
  }

  /** Sets the application fee of a pending request of the tenant's environment, with its event. */
  async setApplicationFee(
    tenant: Pick<Tenant, 'organizationId' | 'environmentId'>,
    id: string,
    fee: number,
  ): Promise<PaymentRequest> {
    const pr = await this.repo.setApplicationFee(tenant.environmentId, id, fee, tenant.organizationId);
    if (!pr) throw paymentRequestError(PaymentRequestError.AlreadyPaid);
    return pr;
  }

  async getById(tenant: Tenant, id: string): Promise<PaymentRequest> {
    const pr = await this.repo.byId(tenant.environmentId, id);
    if (!pr) throw paymentRequestError(PaymentRequestError.NotFound);
    return pr;
  }

  /** A payment request of the environment, or undefined. */
  findInEnvironment(environmentId: string, id: string): Promise<PaymentRequest | undefined> {
    return this.repo.byId(environmentId, id);
  }

  /** A keyset page of the dashboard's search of the environment's payment requests, newest first. */
  search(
    environmentId: string,
    filter: PaymentRequestSearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<PaymentRequest>> {
    return this.repo.search(environmentId, filter, page);
  }

  /** A hot path (merchants' retry rule 3, the pay screen): one indexed query. */
  async getByTransactionId(tenant: Tenant, transactionId: string): Promise<PaymentRequest> {
    const pr = await this.repo.byTransactionId(tenant.environmentId, transactionId);
    if (!pr) throw paymentRequestError(PaymentRequestError.NotFound);
    return pr;
  }

  /** Newest first. */
  /** Every payment request the filter selects, as CSV, streamed. */
  csv(tenant: Tenant, q: ListPaymentRequestsQuery): StreamableFile {
    return csvFile(
      'payment-requests',
      PAYMENT_REQUEST_CSV_COLUMNS,
      mapBatches(this.repo.listAll(tenant.environmentId, listFilter(q)), toPaymentRequestJson),
    );
  }

  async list(tenant: Tenant, q: ListPaymentRequestsQuery): Promise<ListEnvelope<PaymentRequestJson>> {
    const page = pageOf(q);
    const { items, total } = await this.repo.list(tenant.environmentId, listFilter(q), page);
    return envelope(items.map(toPaymentRequestJson), total, page);
  }
}

/** The list's filters, as the repository takes them. */
function listFilter(q: ListPaymentRequestsQuery): PaymentRequestListFilter {
  return { status: q.status, paymentLinkId: q.paymentLinkId };
}

function newPaymentRequest(tenant: Pick<Tenant, 'environmentId'>, input: NewPaymentRequest): PaymentRequest {
  const now = new Date();
  return {
    id: randomUUID(),
    environmentId: tenant.environmentId,
    transactionId: input.transactionId,
    amount: input.amount,
    phoneNumber: input.phoneNumber,
    status: 'pending',
    paidAt: null,
    invoiceId: input.invoiceId ?? null,
    voidedAt: null,
    paymentCount: 0,
    applicationFee: input.applicationFee ?? null,
    paymentLinkId: input.paymentLinkId ?? null,
    // The API's and the pages' requests live on the real clock; the billing run copies an invoice's clock onto its own.
    testClockId: null,
    createdAt: now,
    updatedAt: now,
  };
}
