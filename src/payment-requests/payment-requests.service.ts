import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { Sql } from '../database/sql';
import { badRequest, conflict, notFound } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { amountProblem, normalizePhone } from '../common/validation/rules';
import { Queryable, recordEventWhen } from '../webhooks/outbox';
import type { CreatePaymentRequestDto, ListPaymentRequestsQuery } from './dto/payment-request.dto';
import { fromRow, PaymentRequest, PaymentRequestJson, PaymentRequestRow, toPaymentRequestJson } from './payment-request.entity';

/** 400 for an amount out of range, with the message of the caller's domain (prices have their own). */
export function assertAmount(amount: number, notPositive: string = Messages.amountNotPositive): void {
  const problem = amountProblem(amount);
  if (problem === 'not-positive') throw badRequest(notPositive);
  if (problem === 'too-large') throw badRequest(Messages.amountTooLarge);
}

/** The normalised 8 digits, or 400 `Invalid phone number`. */
export function assertPhone(raw: string): string {
  const phone = normalizePhone(raw);
  if (!phone) throw badRequest(Messages.invalidPhoneNumber);
  return phone;
}

@Injectable()
export class PaymentRequestsService {
  constructor(
    private readonly sql: Sql,
    @InjectRepository(PaymentRequest) private readonly repo: Repository<PaymentRequest>,
  ) {}

  /** The pool as a Queryable: `create` needs no transaction of its own (one statement). */
  private readonly pool: Queryable = { query: (text, params) => this.sql.rows(text, params) };

  /**
   * Creates the request and records `payment-request-created` in one statement (one round trip,
   * one transaction). A used transactionId inserts nothing, so the event is not written either.
   */
  async create(tenant: Tenant, dto: CreatePaymentRequestDto): Promise<PaymentRequestJson> {
    assertAmount(dto.amount);
    const phoneNumber = dto.phoneNumber === undefined ? null : assertPhone(dto.phoneNumber);
    const created = await this.insert(this.pool, tenant, { transactionId: dto.transactionId, amount: dto.amount, phoneNumber });
    if (!created) throw conflict(Messages.transactionIdTaken(dto.transactionId));
    return created;
  }

  /**
   * The insert behind `create`, on the caller's transaction (checkout creates requests too).
   * Input is already validated. Returns null, and records nothing, when the transactionId is taken.
   */
  async insert(
    q: Queryable,
    tenant: Pick<Tenant, 'organizationId' | 'environmentId'>,
    input: { transactionId: string; amount: number; phoneNumber: string | null },
  ): Promise<PaymentRequestJson | null> {
    const now = new Date();
    const pr = Object.assign(new PaymentRequest(), {
      id: randomUUID(),
      environmentId: tenant.environmentId,
      transactionId: input.transactionId,
      amount: input.amount,
      phoneNumber: input.phoneNumber,
      status: 'pending',
      paidAt: null,
      invoiceId: null,
      createdAt: now,
      updatedAt: now,
    } satisfies PaymentRequest);
    const json = toPaymentRequestJson(pr);
    const event = recordEventWhen('created', 7, {
      organizationId: tenant.organizationId,
      environmentId: tenant.environmentId,
      kind: 'payment-request-created',
      data: json,
      createdAt: now,
    });
    const rows = (await q.query(
      `WITH created AS (
         INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (environment_id, transaction_id) DO NOTHING
         RETURNING id
       ), event AS (${event.sql})
       SELECT id FROM created`,
      [pr.id, pr.environmentId, pr.transactionId, pr.amount, pr.phoneNumber, now, ...event.params],
    )) as unknown[];
    return rows.length === 0 ? null : json;
  }

  async getById(tenant: Tenant, id: string): Promise<PaymentRequest> {
    const pr = await this.repo.findOneBy({ id, environmentId: tenant.environmentId });
    if (!pr) throw notFound(Messages.paymentRequestNotFound);
    return pr;
  }

  /** A hot path (merchants' retry rule 3, the pay screen): one indexed query, no ORM mapping. */
  async getByTransactionId(tenant: Tenant, transactionId: string): Promise<PaymentRequest> {
    const [row] = await this.sql.rows<PaymentRequestRow>(
      'SELECT * FROM payment_requests WHERE environment_id = $1 AND transaction_id = $2',
      [tenant.environmentId, transactionId],
    );
    if (!row) throw notFound(Messages.paymentRequestNotFound);
    return fromRow(row);
  }

  /** Newest first. */
  async list(tenant: Tenant, q: ListPaymentRequestsQuery): Promise<ListEnvelope<PaymentRequestJson>> {
    const page = pageOf(q);
    const where = { environmentId: tenant.environmentId, ...(q.status ? { status: q.status } : {}) };
    const [rows, total] = await this.repo.findAndCount({
      where,
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
    return envelope(rows.map(toPaymentRequestJson), total, page);
  }
}
