import { assertFeeAllowed } from '../payment-requests/application-fee';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import { Clock } from '../common/clock';
import type { EnvironmentScope } from '../organizations/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { assertPhone, parseDateTime } from '../common/validation/rules';
import { Coupon, periodsOf } from '../coupons/coupon';
import { CouponsService } from '../coupons/coupons.service';
import { Customer } from '../customers/customer';
import { CustomersService } from '../customers/customers.service';
import { Db } from '../database/db';
import type { KeysetPage, KeysetQuery } from '../database/keyset';
import { Price } from '../prices/price';
import { PricesService } from '../prices/prices.service';
import { TestClocksService } from '../test-clocks/test-clocks.service';
import type {
  ChangeSubscriptionDto,
  CreateSubscriptionByExternalUserDto,
  CreateSubscriptionDto,
  ListSubscriptionsQuery,
  SubscriptionOptionsDto,
} from './dto/subscription.dto';
import {
  cancel,
  Change,
  pause,
  renew,
  resolveTerms,
  resume,
  MAX_PERIODS_AT_CREATION,
  startSubscription,
  SubscriptionTerms,
} from './lifecycle';
import { changePlan } from './plan-change';
import { renewalInput, Renewals } from './renewals';
import { Subscription, SubscriptionJson, SubscriptionStatus, toSubscriptionJson } from './subscription';
import { SubscriptionError, subscriptionError } from './subscriptions.errors';
import {
  RenewalRow,
  SubscriptionListItem,
  SubscriptionRow,
  SubscriptionsRepository,
} from './subscriptions.repository';

const toSubscriptionRowJson = (s: SubscriptionRow) => toSubscriptionJson(s, s.overdue);

/** The subscription with this discount (409 once it has ended: nothing more to discount). */
function withDiscount(
  s: Subscription,
  d: Pick<Subscription, 'couponId' | 'discountPeriodsApplied' | 'discountEndsAfter'>,
  now: Date,
): Change {
  if (s.status === 'cancelled' || s.status === 'expired' || s.status === 'incomplete_expired')
    throw subscriptionError(SubscriptionError.NotActive);
  if (s.couponId === d.couponId && d.couponId === null)
    return { subscription: s, changed: false, voidInvoices: false };
  return { subscription: { ...s, ...d, updatedAt: now }, changed: true, voidInvoices: false };
}

/** What one period bills must fit a payment request (at most 100,000,000 MRU). */
function assertPeriodAmount(amount: number, quantity: number): void {
  if (amount * quantity > 100_000_000) throw subscriptionError(SubscriptionError.PeriodAmountTooLarge);
}

/** The creation options, parsed (the DTO checked their shapes). */
export function termsOf(
  dto: SubscriptionOptionsDto,
): SubscriptionTerms & { applicationFeeBps: number | null } {
  const date = (v: string | undefined) => (v === undefined ? undefined : parseDateTime(v)!);
  return {
    trial: dto.trial === undefined ? undefined : dto.trial === true || dto.trial === 'trialing',
    trialPeriod: dto.trialPeriod,
    trialEnd: date(dto.trialEnd),
    startedAt: date(dto.startedAt),
    expiresAt: date(dto.expiresAt),
    requireFirstPayment: dto.requireFirstPayment,
    quantity: dto.quantity,
    applicationFeeBps: dto.applicationFeeBps ?? null,
  };
}

/**
 * Subscriptions (docs/billing.md): creation bills the first period at once (and every started period
 * of a backdated one); every change first brings the subscription up to date, as the billing run
 * would, under the subscription's row lock, so that no period is skipped or billed twice.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly db: Db,
    private readonly repo: SubscriptionsRepository,
    private readonly renewals: Renewals,
    private readonly customers: CustomersService,
    private readonly prices: PricesService,
    private readonly coupons: CouponsService,
    private readonly clock: Clock,
    private readonly clocks: TestClocksService,
  ) {}

  async create(tenant: Tenant, dto: CreateSubscriptionDto): Promise<SubscriptionJson> {
    const terms = termsOf(dto);
    resolveTerms(terms, new Date()); // its 400s before any look-up
    if (terms.applicationFeeBps !== null) assertFeeAllowed(tenant);
    return this.db.transaction(async () => {
      const customer = await this.customers.get(tenant, dto.customerId);
      const price = await this.prices.subscribable(tenant, dto.priceId);
      const coupon = dto.coupon === undefined ? null : await this.coupons.redeem(tenant, dto.coupon);
      return this.start(tenant, customer, price, terms, coupon);
    });
  }

  /** The customer is created if needed, its phone replaced if one is given. */
  async createByExternalUser(
    tenant: Tenant,
    dto: CreateSubscriptionByExternalUserDto,
  ): Promise<SubscriptionJson> {
    const terms = termsOf(dto);
    resolveTerms(terms, new Date());
    if (terms.applicationFeeBps !== null) assertFeeAllowed(tenant);
    const phone = dto.phone === undefined ? null : assertPhone(dto.phone);
    return this.db.transaction(async () => {
      const price = await this.prices.subscribable(tenant, dto.priceId);
      const coupon = dto.coupon === undefined ? null : await this.coupons.redeem(tenant, dto.coupon);
      const customer = await this.customers.findOrCreate(tenant, dto.externalUserId, phone);
      return this.start(tenant, customer, price, terms, coupon);
    });
  }

  async get(tenant: Tenant, id: string): Promise<SubscriptionJson> {
    return toSubscriptionRowJson(await this.subscriptionOrNotFound(this.repo.byId(tenant.environmentId, id)));
  }

  async getByExternalUser(tenant: Tenant, externalUserId: string): Promise<SubscriptionJson> {
    return toSubscriptionRowJson(
      await this.subscriptionOrNotFound(
        this.repo.byExternalUser(tenant.organizationId, tenant.environmentId, externalUserId),
      ),
    );
  }

  /** Newest first. */
  async list(tenant: Tenant, q: ListSubscriptionsQuery): Promise<ListEnvelope<SubscriptionJson>> {
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(tenant.environmentId, { status: q.status }, page);
    return envelope(rows.map(toSubscriptionRowJson), total, page);
  }

  /** A keyset page of the environment's subscriptions, newest first, with their customer and price. */
  search(
    environmentId: string,
    filter: { status?: SubscriptionStatus; customerId?: string },
    page: KeysetQuery,
  ): Promise<KeysetPage<SubscriptionListItem>> {
    return this.repo.search(environmentId, filter, page);
  }

  /** A subscription of the environment with its customer and price, or undefined. */
  detail(environmentId: string, id: string): Promise<SubscriptionListItem | undefined> {
    return this.repo.detail(environmentId, id);
  }

  /** Applies a coupon (redeemed once), replacing the one applied; from the next invoice. */
  applyDiscount(tenant: Tenant, id: string, couponIdOrCode: string): Promise<SubscriptionJson> {
    return this.db.transaction(async () => {
      const coupon = await this.coupons.redeem(tenant, couponIdOrCode);
      return this.change(tenant, id, (s, now) =>
        withDiscount(
          s,
          { couponId: coupon.id, discountPeriodsApplied: 0, discountEndsAfter: periodsOf(coupon) },
          now,
        ),
      );
    });
  }

  /** Removes the applied coupon: the next invoices are billed in full. */
  removeDiscount(tenant: Tenant, id: string): Promise<SubscriptionJson> {
    return this.change(tenant, id, (s, now) =>
      withDiscount(s, { couponId: null, discountPeriodsApplied: 0, discountEndsAfter: null }, now),
    );
  }

  /** `at`: the time of a run that cancels (dunning), else now on the subscription's clock. */
  cancel(tenant: EnvironmentScope, id: string, atPeriodEnd: boolean, at?: Date): Promise<SubscriptionJson> {
    return this.change(tenant, id, (s, now) => cancel(s, atPeriodEnd, now), at);
  }

  /** `at`: the time of a run that pauses (dunning), else now on the subscription's clock. */
  pause(tenant: EnvironmentScope, id: string, at?: Date): Promise<SubscriptionJson> {
    return this.change(tenant, id, pause, at);
  }

  resume(tenant: EnvironmentScope, id: string): Promise<SubscriptionJson> {
    return this.change(tenant, id, resume);
  }

  /**
   * A change of price and/or quantity (docs/billing.md "Changing plan"), in one transaction under
   * the subscription's lock and then its customer's (whose credit the change may add to or use):
   * renew first, as every change does, then change, prorating the rest of the period.
   */
  async changePlan(tenant: Tenant, id: string, dto: ChangeSubscriptionDto): Promise<SubscriptionJson> {
    if (dto.priceId === undefined && dto.quantity === undefined)
      throw subscriptionError(SubscriptionError.NothingToChange);
    return this.db.transaction(async () => {
      const row = await this.subscriptionOrNotFound(this.repo.lockForRenewal(tenant.environmentId, id));
      await this.customers.lockCredits([row.customerId]);
      const newPrice =
        dto.priceId === undefined ? undefined : await this.prices.withProduct(tenant, dto.priceId);
      if (newPrice && !newPrice.subscribable) throw subscriptionError(SubscriptionError.PriceNotActive);
      const now =
        row.testClockId === null
          ? new Date(this.clock.now())
          : await this.clocks.nowOf(row.testClockId, tenant.environmentId);
      const first = renew(renewalInput(row), now);
      const caughtUp = this.renewals.builder(now);
      await this.renewals.useCredits(caughtUp, [row.customerId]);
      caughtUp.renewal(row, first);
      await this.renewals.apply(caughtUp);

      const s = first.subscription;
      // The price it bills now: a change made for period end may just have been applied.
      const current =
        s.priceId === row.priceId
          ? { amount: row.priceAmount, interval: row.priceInterval, productName: row.productName }
          : {
              amount: row.pendingPriceAmount!,
              interval: row.pendingPriceInterval!,
              productName: row.pendingProductName!,
            };
      const target = newPrice ?? { id: s.priceId, ...current };
      const quantity = dto.quantity ?? s.quantity;
      assertPeriodAmount(target.amount, quantity);
      const c = changePlan(
        s,
        current,
        { price: target, quantity, prorate: dto.prorate ?? true, at: dto.at ?? 'now' },
        now,
      );

      const unpaid = [row.oldestUnpaidDue, ...first.periods.map((p) => p.end)].filter((d) => d !== null);
      const oldestUnpaidDue = unpaid.length === 0 ? null : new Date(Math.min(...unpaid.map(Number)));
      const b = this.renewals.builder(now);
      await this.renewals.useCredits(b, [row.customerId]);
      b.change(c.subscription, oldestUnpaidDue !== null && oldestUnpaidDue <= now, false);
      // The discount the subscription has at the change (the renewal may just have ended it).
      const percentOff = c.subscription.couponId !== null ? row.couponPercentOff : null;
      if (c.proration)
        b.proration({ ...row, ...c.subscription }, c.proration, target.productName, percentOff);
      await this.renewals.apply(b);
      return toSubscriptionRowJson((await this.repo.byId(tenant.environmentId, id))!);
    });
  }

  /**
   * Inserts the subscription in its state after billing what has started (with
   * `subscription-created`), then the invoices, requests and their events.
   */
  private async start(
    tenant: Tenant,
    customer: Customer,
    price: Price & { productName: string },
    terms: SubscriptionTerms & { applicationFeeBps: number | null },
    coupon: Coupon | null,
  ) {
    assertPeriodAmount(price.amount, terms.quantity ?? 1);
    // On a test clock: started as of the clock's time (docs/billing.md "Testing with test clocks").
    const now = await this.clocks.nowOf(customer.testClockId, tenant.environmentId);
    const started = startSubscription(
      {
        id: randomUUID(),
        organizationId: tenant.organizationId,
        environmentId: tenant.environmentId,
        customerId: customer.id,
        applicationFeeBps: terms.applicationFeeBps,
      },
      price,
      terms,
      now,
    );
    const initial = coupon
      ? { ...started, couponId: coupon.id, discountPeriodsApplied: 0, discountEndsAfter: periodsOf(coupon) }
      : started;
    const row: RenewalRow = {
      ...initial,
      couponPercentOff: coupon?.percentOff ?? null,
      couponAmountOff: coupon?.amountOff ?? null,
      priceAmount: price.amount,
      priceInterval: price.interval,
      productName: price.productName,
      pendingPriceAmount: null,
      pendingPriceInterval: null,
      pendingProductName: null,
      customerCredit: customer.creditBalance,
      customerPhone: customer.phone,
      testClockId: customer.testClockId,
      oldestUnpaidDue: null,
    };
    const firstPayment = initial.firstPaymentDueBy !== null;
    // Requiring a first payment: only the first period now, its invoice due at once (the
    // subscription shows `incomplete` until it is paid); the billing run bills the rest once paid.
    const r = renew(renewalInput(row), now, firstPayment ? 1 : MAX_PERIODS_AT_CREATION);
    if (firstPayment && r.periods.length > 0) {
      r.periods[0].due = now;
      r.overdue = true;
    }
    await this.repo.insert(r.subscription, customer.testClockId, {
      organizationId: tenant.organizationId,
      environmentId: tenant.environmentId,
      kind: 'subscription-created',
      data: toSubscriptionJson(r.subscription, r.overdue),
      createdAt: now,
    });
    const b = this.renewals.builder(now);
    if (customer.creditBalance > 0) await this.renewals.useCredits(b, [customer.id]);
    b.renewal(row, r, { creating: true });
    await this.renewals.apply(b);
    return toSubscriptionJson(r.subscription, r.overdue);
  }

  /**
   * A change through the API, in one transaction under the subscription's lock: renew first (what
   * the billing run would do now), write; then the change and, when it restarts billing (resume),
   * the periods that start now, in a second statement (which sees the first one's invoices, so a
   * cancellation voids them too).
   */
  private change(
    tenant: EnvironmentScope,
    id: string,
    apply: (s: Subscription, now: Date) => Change,
    at?: Date,
  ): Promise<SubscriptionJson> {
    return this.db.transaction(async () => {
      const row = await this.subscriptionOrNotFound(this.repo.lockForRenewal(tenant.environmentId, id));
      const now = at ?? (await this.clocks.nowOf(row.testClockId, tenant.environmentId));
      const first = renew(renewalInput(row), now);
      const caughtUp = this.renewals.builder(now);
      if (row.customerCredit > 0) await this.renewals.useCredits(caughtUp, [row.customerId]);
      caughtUp.renewal(row, first);
      await this.renewals.apply(caughtUp);

      const c = apply(first.subscription, now);
      if (c.changed) {
        // Its unpaid invoices now: those before, and those just created (unless cancelling voids them).
        const unpaid = [row.oldestUnpaidDue, ...first.periods.map((p) => p.end)].filter((d) => d !== null);
        const oldestUnpaidDue =
          c.voidInvoices || unpaid.length === 0 ? null : new Date(Math.min(...unpaid.map(Number)));
        const changed: RenewalRow = { ...row, ...c.subscription, oldestUnpaidDue };
        const b = this.renewals.builder(now);
        b.change(c.subscription, oldestUnpaidDue !== null && oldestUnpaidDue <= now, c.voidInvoices);
        b.renewal(changed, renew(renewalInput(changed), now));
        await this.renewals.apply(b);
      }
      return toSubscriptionRowJson((await this.repo.byId(tenant.environmentId, id))!);
    });
  }

  private async subscriptionOrNotFound(row: Promise<SubscriptionRow | undefined>): Promise<SubscriptionRow>;
  private async subscriptionOrNotFound(row: Promise<RenewalRow | undefined>): Promise<RenewalRow>;
  private async subscriptionOrNotFound<T>(row: Promise<T | undefined>): Promise<T> {
    const r = await row;
    if (!r) throw subscriptionError(SubscriptionError.NotFound);
    return r;
  }
}
