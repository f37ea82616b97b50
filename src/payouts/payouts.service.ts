import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { StreamableFile } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { csvFile, mapBatches } from '../common/http/csv';
import { Metrics } from '../common/metrics/metrics';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { assertAmount } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import { timeOrderedId } from '../database/time-ordered-id';
import { LedgerChecks } from '../ledger/ledger-checks';
import { LedgerRepository } from '../ledger/ledger.repository';
import { payoutIdOfPayment } from '../ledger/ledger.fragments';
import { PaymentPayouts } from '../payments/payment-payouts';
import { EnvironmentSetup } from '../organizations/environment-setup';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import { BankUnavailableError } from '../payments/banks/bank';
import type { CreatePayoutDto, ListPayoutsQuery, UpdatePayoutScheduleDto } from './dto/payout.dto';
import { Payout, PAYOUT_CSV_COLUMNS, PayoutJson, toPayoutJson } from './payout';
import { PayoutScheduleJson, toPayoutScheduleJson } from './payout-schedule';
import { PayoutError, payoutError } from './payouts.errors';
import { PayoutOutcome, PayoutsRepository, PayoutToSend } from './payouts.repository';
import { payoutLedgerCheck } from './payouts.fragments';
import { TransfersService } from './transfers';

/** How long a sender holds a payout it is sending before another instance may send it again. */
export const PAYOUT_LEASE_MS = 60_000;
/** How long a payout in transit waits before the gateway is asked about it again. */
export const IN_TRANSIT_RETRY_MS = 5 * 60_000;

/** Why no payout was made for an environment. */
export type NoPayout = 'on-hold' | 'insufficient';

/**
 * Payouts (docs/payouts.md): made under the environment's schedule lock from the available balance,
 * each with its `payout` balance transaction and `payout-created` event in one transaction; then
 * sent through the bank gateway outside any transaction, and settled (`paid`, `in_transit`,
 * `failed` with its `payout_failure` transaction) with `payout-updated`.
 */
@Injectable()
export class PayoutsService implements OnModuleInit {
  private readonly logger = new Logger(PayoutsService.name);

  constructor(
    private readonly db: Db,
    private readonly repo: PayoutsRepository,
    private readonly ledger: LedgerRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly transfers: TransfersService,
    private readonly environmentSetup: EnvironmentSetup,
    private readonly paymentPayouts: PaymentPayouts,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly ledgerChecks: LedgerChecks,
  ) {}

  onModuleInit(): void {
    this.ledgerChecks.register('payouts', payoutLedgerCheck);
    this.environmentSetup.register('payout-schedule', (environment) => this.repo.insertSchedule(environment));
    this.paymentPayouts.register(payoutIdOfPayment);
  }

  /**
   * `POST /payouts`: a payout now of `amount` (default: the whole available balance), sent at once;
   * the answer is the payout as the gateway left it.
   */
  async create(t: Tenant, dto: CreatePayoutDto): Promise<PayoutJson> {
    if (dto.amount !== undefined) assertAmount(dto.amount);
    const payout = await this.db.transaction(async () => {
      await this.repo.lockEnvironment(t.environmentId);
      const made = await this.open(t.environmentId, t.organizationId, {
        amount: dto.amount,
        automatic: false,
        nextAttemptAt: new Date(Date.now() + PAYOUT_LEASE_MS),
      });
      if (made === 'on-hold') throw payoutError(PayoutError.OnHold);
      if (made === 'insufficient') throw payoutError(PayoutError.InsufficientBalance);
      return made;
    });
    return toPayoutJson(await this.send({ ...payout, environment: t.environment }));
  }

  /**
   * Makes a `pending` payout of an environment whose schedule row the caller's transaction holds:
   * of `amount`, or of the whole available balance (then the balance transactions it pays are
   * linked to it), when the organization's payouts are not held and its payout account is approved,
   * and the available balance covers it (and, for the schedule, reaches `minimumAmount`).
   */
  async open(
    environmentId: string,
    organizationId: string,
    o: { amount?: number; minimumAmount?: number; automatic: boolean; nextAttemptAt?: Date },
  ): Promise<Payout | NoPayout> {
    const account = await this.organizations.account(organizationId);
    const destination = account?.payoutAccount;
    if (!account || account.payoutsHeld || !destination || destination.status !== 'approved')
      return 'on-hold';
    const { available, at } = await this.ledger.availableForPayout(environmentId);
    const amount = o.amount ?? available;
    if (available <= 0 || amount > available || amount < (o.minimumAmount ?? 1)) return 'insufficient';
    const payout = await this.repo.insert({
      id: timeOrderedId(),
      environmentId,
      organizationId,
      amount,
      automatic: o.automatic,
      bank: destination.bank,
      holderName: destination.holderName,
      iban: destination.iban,
      nextAttemptAt: o.nextAttemptAt,
    });
    await this.ledger.recordPayout(payout, o.amount === undefined ? at : null);
    this.metrics.payouts.inc({ status: 'pending' });
    return payout;
  }

  /**
   * Sends a payout through its environment's gateway (or asks about it again: the gateway answers
   * a known reference with its state) and settles it. No usable answer: it stays as it is, and the
   * payout job asks again once its lease ends.
   */
  async send(payout: PayoutToSend): Promise<Payout> {
    let outcome: PayoutOutcome;
    try {
      outcome = await this.transfers.transfer(payout.environment, {
        reference: payout.id,
        amount: payout.amount,
        bank: payout.bank,
        holderName: payout.holderName,
        iban: payout.iban,
        description: `Khoums payout ${payout.id}`,
      });
    } catch (err) {
      if (!(err instanceof BankUnavailableError)) throw err;
      this.logger.warn(
        { payoutId: payout.id, reason: err.message },
        'payout gateway unavailable; asked again later',
      );
      return payout;
    }
    if (outcome.status === 'in_transit' && payout.status === 'in_transit') {
      await this.repo.retryLater(payout.id, IN_TRANSIT_RETRY_MS);
      return payout;
    }
    const settled = await this.db.transaction(async () => {
      const changed = await this.repo.settle(payout.id, outcome, IN_TRANSIT_RETRY_MS);
      if (changed?.status === 'failed') await this.ledger.recordPayoutFailure(changed);
      return changed;
    });
    if (!settled) return (await this.repo.byId(payout.environmentId, payout.id)) ?? payout;
    this.metrics.payouts.inc({ status: settled.status });
    return settled;
  }

  async get(t: Tenant, id: string): Promise<PayoutJson> {
    const payout = await this.repo.byId(t.environmentId, id);
    if (!payout) throw payoutError(PayoutError.NotFound);
    return toPayoutJson(payout);
  }

  /** Newest first. Two statements (page and count), whatever the page size. */
  async list(t: Tenant, q: ListPayoutsQuery): Promise<ListEnvelope<PayoutJson>> {
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(t.environmentId, { status: q.status }, page);
    return envelope(rows.map(toPayoutJson), total, page);
  }

  /** Every payout the filter selects, as CSV, streamed. */
  csv(t: Tenant, q: ListPayoutsQuery): StreamableFile {
    return csvFile(
      'payouts',
      PAYOUT_CSV_COLUMNS,
      mapBatches(this.repo.listAll(t.environmentId, { status: q.status }), toPayoutJson),
    );
  }

  async schedule(t: Tenant): Promise<PayoutScheduleJson> {
    const schedule = await this.repo.schedule(t.environmentId);
    if (!schedule) throw new Error(`environment ${t.environmentId} has no payout schedule`);
    return toPayoutScheduleJson(schedule, this.config.PAYOUT_HOUR_UTC);
  }

  async updateSchedule(t: Tenant, dto: UpdatePayoutScheduleDto): Promise<PayoutScheduleJson> {
    if (dto.minimumAmount !== undefined) assertAmount(dto.minimumAmount);
    const schedule = await this.repo.updateSchedule(t.environmentId, dto);
    if (!schedule) throw new Error(`environment ${t.environmentId} has no payout schedule`);
    return toPayoutScheduleJson(schedule, this.config.PAYOUT_HOUR_UTC);
  }
}
