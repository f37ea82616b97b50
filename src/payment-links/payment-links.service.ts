import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import { CheckoutSessionsService } from '../checkout/checkout-sessions.service';
import { AppError } from '../common/errors/app-error';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { assertAmount, parseDateTime } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import type { KeysetPage, KeysetQuery } from '../database/keyset';
import { IdempotencyError } from '../idempotency/idempotency.errors';
import { IdempotencyKeyRecords, IdempotentReplay } from '../idempotency/idempotency-key-records';
import { RequestKey } from '../idempotency/request-key';
import { assertMayAskForMoney } from '../organizations/account';
import { PaymentRequestsService } from '../payment-requests/payment-requests.service';
import type {
  CreatePaymentLinkDto,
  ListPaymentLinksQuery,
  UpdatePaymentLinkDto,
} from './dto/payment-link.dto';
import {
  closureOf,
  DEFAULT_MAX_AMOUNT,
  DEFAULT_MIN_AMOUNT,
  LinkClosure,
  linkPagePath,
  newLinkCode,
  PaymentLink,
  PaymentLinkJson,
  toPaymentLinkJson,
} from './payment-link';
import { PaymentLinkError, paymentLinkError } from './payment-links.errors';
import { LinkPageRow, PaymentLinkChanges, PaymentLinksRepository } from './payment-links.repository';

/** A payment the link cannot take now, and why (its page answers 410 with the reason). */
export class LinkClosedError extends Error {
  constructor(readonly closure: LinkClosure) {
    super(`payment link closed: ${closure}`);
    this.name = 'LinkClosedError';
  }
}

/** What the customer gave on the link's page, already checked. */
export interface LinkPaymentInput {
  amount: number;
  /** The 8 digits. */
  phoneNumber: string;
  /** The payment method chosen on the link's page (the hosted page starts with it checked); null: none. */
  paymentMethodId: string | null;
  /** The rendered form's own key: submitting that form again is the same payment. */
  formKey?: string;
}

/** Resubmissions of one form while its first submission still runs: how often to look again. */
const IN_PROGRESS_TRIES = 20;
const IN_PROGRESS_WAIT_MS = 100;

@Injectable()
export class PaymentLinksService {
  constructor(
    private readonly db: Db,
    private readonly config: AppConfig,
    private readonly repo: PaymentLinksRepository,
    private readonly requests: PaymentRequestsService,
    private readonly sessions: CheckoutSessionsService,
    private readonly keys: IdempotencyKeyRecords,
  ) {}

  toJson(link: PaymentLink): PaymentLinkJson {
    return toPaymentLinkJson(link, this.config.publicUrl);
  }

  /**
   * A fixed amount (the amount rules: 400) or the customer's, between minAmount and maxAmount
   * (defaults 1 and 1,000,000; only without an amount: 400; min ≤ max: 400); expiresAt in the
   * future (400). A Production link asks for money: the organization must be verified (403).
   */
  async create(tenant: Tenant, dto: CreatePaymentLinkDto): Promise<PaymentLinkJson> {
    assertMayAskForMoney(tenant);
    const limitsGiven = dto.minAmount !== undefined || dto.maxAmount !== undefined;
    if (dto.amount !== undefined) {
      assertAmount(dto.amount);
      if (limitsGiven) throw paymentLinkError(PaymentLinkError.AmountLimitsWithAmount);
    }
    const minAmount = dto.amount === undefined ? (dto.minAmount ?? DEFAULT_MIN_AMOUNT) : null;
    const maxAmount =
      dto.amount === undefined ? (dto.maxAmount ?? Math.max(DEFAULT_MAX_AMOUNT, minAmount!)) : null;
    if (minAmount !== null && maxAmount !== null && minAmount > maxAmount)
      throw paymentLinkError(PaymentLinkError.MinAboveMax);
    const expiresAt = futureDate(dto.expiresAt);
    const id = randomUUID();
    const now = new Date();
    // 62^10 codes: a collision is rare, and then the insert does nothing and another code is drawn.
    for (;;) {
      const inserted = await this.repo.insert({
        id,
        environmentId: tenant.environmentId,
        code: newLinkCode(),
        name: dto.name,
        description: dto.description ?? null,
        amount: dto.amount ?? null,
        minAmount,
        maxAmount,
        maxPayments: dto.maxPayments ?? null,
        expiresAt: expiresAt ?? null,
        successMessage: dto.successMessage ?? null,
        language: dto.language ?? 'fr',
        createdAt: now,
      });
      if (inserted) return this.toJson(await this.find(tenant, id));
    }
  }

  async get(tenant: Pick<Tenant, 'environmentId'>, id: string): Promise<PaymentLinkJson> {
    return this.toJson(await this.find(tenant, id));
  }

  /** A link of the environment, or 404 `Payment link not found`. */
  async find(tenant: Pick<Tenant, 'environmentId'>, id: string): Promise<PaymentLink> {
    const link = await this.repo.byId(tenant.environmentId, id);
    if (!link) throw paymentLinkError(PaymentLinkError.NotFound);
    return link;
  }

  /** A link of the environment, or undefined. */
  findInEnvironment(environmentId: string, id: string): Promise<PaymentLink | undefined> {
    return this.repo.byId(environmentId, id);
  }

  /** A keyset page of the environment's links, newest first, with their totals. */
  search(environmentId: string, page: KeysetQuery): Promise<KeysetPage<PaymentLink>> {
    return this.repo.search(environmentId, page);
  }

  async list(tenant: Tenant, q: ListPaymentLinksQuery): Promise<ListEnvelope<PaymentLinkJson>> {
    const page = pageOf(q);
    const active = q.active === undefined ? undefined : q.active === 'true';
    const { items, total } = await this.repo.list(tenant.environmentId, { active }, page);
    return envelope(
      items.map((l) => this.toJson(l)),
      total,
      page,
    );
  }

  /** Name, description, active, maxPayments, expiresAt (future, or null), successMessage; never the amount. */
  async update(
    tenant: Pick<Tenant, 'environmentId'>,
    id: string,
    dto: UpdatePaymentLinkDto,
  ): Promise<PaymentLinkJson> {
    const changes: PaymentLinkChanges = {
      name: dto.name,
      description: dto.description,
      active: dto.active,
      maxPayments: dto.maxPayments,
      expiresAt: dto.expiresAt === null ? null : futureDate(dto.expiresAt),
      successMessage: dto.successMessage,
    };
    const link = await this.repo.update(tenant.environmentId, id, changes);
    if (!link) throw paymentLinkError(PaymentLinkError.NotFound);
    return this.toJson(link);
  }

  /** The link of a page's code, with its merchant; undefined for a code that names none. */
  forPage(code: string): Promise<LinkPageRow | undefined> {
    return this.repo.forPage(code);
  }

  /**
   * Starts a customer's payment through the link: a payment request `link_<code>_<n>` of the
   * link's environment (with `paymentLinkId`) and its checkout session, whose id it returns.
   * Throws LinkClosedError when the link takes no payment now (inactive, expired, exhausted, or
   * its places all held); a Production link of an unverified merchant is 403.
   *
   * `maxPayments` holds under any concurrency, on any number of instances: the link's row lock is
   * taken first, the places are counted after it, and the request that takes a place is committed
   * before the lock is released. A place stays taken until the session ends unpaid, which makes
   * the request void in the same statement (src/checkout: expiry and cancel).
   */
  async startPayment(link: LinkPageRow, input: LinkPaymentInput): Promise<string> {
    assertMayAskForMoney(link);
    if (input.formKey === undefined) return this.start(link, input);
    const key = RequestKey.of({ environmentId: link.environmentId, paymentLinkId: link.id }, input.formKey, {
      method: 'POST',
      path: linkPagePath(link.code),
      body: `amount=${input.amount}&phoneNumber=${input.phoneNumber}&paymentMethodId=${input.paymentMethodId ?? ''}`,
    });
    for (let tries = 1; ; tries++) {
      try {
        const body = await this.keys.runOnce(key, 200, async () => ({
          checkoutSessionId: await this.start(link, input),
        }));
        return sessionIdOf(body);
      } catch (err) {
        // The same form sent again: the payment its first submission started.
        if (err instanceof IdempotentReplay) return sessionIdOf(err.answer.body);
        // The form sent again with other values (the customer went back and changed them): a new payment.
        if (AppError.is(err, IdempotencyError.KeyReused)) return this.start(link, input);
        // A double click: the first submission is still running; its answer comes in a moment.
        if (AppError.is(err, IdempotencyError.InProgress) && tries < IN_PROGRESS_TRIES) {
          await new Promise((ok) => setTimeout(ok, IN_PROGRESS_WAIT_MS));
          continue;
        }
        throw err;
      }
    }
  }

  private start(link: LinkPageRow, input: LinkPaymentInput): Promise<string> {
    return this.db.transaction(async () => {
      let locked = await this.repo.lockForPayment(link.id);
      if (!locked) throw new LinkClosedError('inactive');
      const places = locked.maxPayments === null ? null : await this.repo.placesOf(link.id);
      const closure = closureOf(locked, places);
      if (closure) throw new LinkClosedError(closure);
      const tenant = { organizationId: link.organizationId, environmentId: link.environmentId };
      for (;;) {
        const request = await this.requests.insert(tenant, {
          transactionId: `link_${link.code}_${locked.n}`,
          amount: input.amount,
          phoneNumber: input.phoneNumber,
          paymentLinkId: link.id,
        });
        if (request) {
          const url = this.config.publicUrl + linkPagePath(link.code);
          const session = await this.sessions.openForNewRequest({
            paymentRequestId: request.id,
            environmentId: link.environmentId,
            successUrl: `${url}/paid`,
            cancelUrl: url,
            selectedConfigurationId: input.paymentMethodId,
          });
          return session.id;
        }
        // The merchant's own request took that transactionId: the link's next number.
        locked = (await this.repo.lockForPayment(link.id))!;
      }
    });
  }
}

/** A date-time in the future, or 400 `expiresAt must be in the future`. */
function futureDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = parseDateTime(value)!;
  if (at.getTime() <= Date.now()) throw paymentLinkError(PaymentLinkError.ExpiresAtPast);
  return at;
}

function sessionIdOf(body: string): string {
  return (JSON.parse(body) as { checkoutSessionId: string }).checkoutSessionId;
}
