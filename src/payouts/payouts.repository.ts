import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { keysetBatches } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, raw, sql } from '../database/sql';
import { environmentKindOf } from '../organizations/organizations.fragments';
import type { EnvironmentKind, NewEnvironment } from '../organizations/tenant';
import { insertEventPerRow } from '../webhooks/outbox';
import type { EventKind } from '../webhooks/event-kinds';
import { Payout, payoutColumns, payoutJsonSql, PayoutStatus } from './payout';
import type { PayoutInterval, PayoutSchedule, Weekday } from './payout-schedule';

const SCHEDULE_COLUMNS = raw(`s.environment_id AS "environmentId", s.interval, s.weekly_day AS "weeklyDay",
  s.minimum_amount::float8 AS "minimumAmount", s.updated_at AS "updatedAt"`);

/** An environment the payout job claimed: its schedule's row is locked until the claim's transaction ends. */
export interface ClaimedEnvironment {
  environmentId: string;
  organizationId: string;
  minimumAmount: number;
}

/** A new payout: its destination is the payout account's at the time it is made. */
export interface NewPayout {
  id: string;
  environmentId: string;
  organizationId: string;
  amount: number;
  automatic: boolean;
  bank: string;
  holderName: string;
  iban: string;
  /** When the job may first send it (a sender of its own holds it until then); none: at once. */
  nextAttemptAt?: Date;
}

/** A payout claimed to be sent (or asked about), with its environment's kind: which bank it goes through. */
export type PayoutToSend = Payout & { environment: EnvironmentKind };

/** The gateway's answer, as a payout's next state. */
export type PayoutOutcome =
  | { status: 'paid'; bankReference: string | null }
  | { status: 'in_transit'; bankReference: string | null }
  | { status: 'failed'; reason: string };

/** Payouts and the payout schedule of each environment (docs/payouts.md). */
@Injectable()
export class PayoutsRepository {
  constructor(private readonly db: Db) {}

  /** A new environment's schedule: daily, minimum 1000 MRU. */
  async insertSchedule(environment: NewEnvironment): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO payout_schedules (environment_id, organization_id)
      VALUES (${environment.id}, ${environment.organizationId}) ON CONFLICT DO NOTHING`);
  }

  schedule(environmentId: string): Promise<PayoutSchedule | undefined> {
    return this.db.one<PayoutSchedule>(
      sql`SELECT ${SCHEDULE_COLUMNS} FROM payout_schedules s WHERE s.environment_id = ${environmentId}`,
    );
  }

  /** Changes the schedule; a weekly one keeps its day unless given one (Monday at first). */
  updateSchedule(
    environmentId: string,
    patch: { interval?: PayoutInterval; weeklyDay?: Weekday; minimumAmount?: number },
  ): Promise<PayoutSchedule | undefined> {
    return this.db.one<PayoutSchedule>(sql`
      WITH changed AS (
        UPDATE payout_schedules
           SET interval = COALESCE(${patch.interval ?? null}::text, interval),
               weekly_day = CASE WHEN COALESCE(${patch.interval ?? null}::text, interval) = 'weekly'
                                 THEN COALESCE(${patch.weeklyDay ?? null}::text, weekly_day, 'monday') END,
               minimum_amount = COALESCE(${patch.minimumAmount ?? null}::bigint, minimum_amount),
               updated_at = now()
         WHERE environment_id = ${environmentId}
        RETURNING *)
      SELECT ${SCHEDULE_COLUMNS} FROM changed s`);
  }

  /**
   * Locks the environment's schedule row for the transaction: every payout of an environment is
   * made under this lock, so two at once never pay one balance twice.
   */
  async lockEnvironment(environmentId: string): Promise<void> {
    await this.db.exec(
      sql`SELECT 1 FROM payout_schedules WHERE environment_id = ${environmentId} FOR UPDATE`,
    );
  }

  /**
   * Claims up to `limit` environments due on `day` (daily ones, and weekly ones on their weekday,
   * not yet considered that day) and marks them considered, in the caller's transaction: rows
   * another run holds are skipped, so runs at once claim disjoint environments. `environmentId`
   * scopes a claim to one environment (the Sandbox's run), which is then due whatever the day.
   */
  claimDue(
    day: string,
    weekday: Weekday,
    limit: number,
    environmentId?: string,
  ): Promise<ClaimedEnvironment[]> {
    const due = environmentId
      ? sql`environment_id = ${environmentId}`
      : sql`(last_paid_on IS NULL OR last_paid_on < ${day}::date)
              AND (interval = 'daily' OR weekly_day = ${weekday})`;
    return this.db.many<ClaimedEnvironment>(sql`
      UPDATE payout_schedules s SET last_paid_on = ${day}::date
        FROM (SELECT environment_id FROM payout_schedules
               WHERE interval <> 'manual' AND ${due}
               ORDER BY last_paid_on NULLS FIRST, environment_id
               LIMIT ${limit} FOR UPDATE SKIP LOCKED) claimed
       WHERE s.environment_id = claimed.environment_id
      RETURNING s.environment_id AS "environmentId", s.organization_id AS "organizationId",
                s.minimum_amount::float8 AS "minimumAmount"`);
  }

  /** Records a `pending` payout and its `payout-created` event (one statement). */
  async insert(p: NewPayout): Promise<Payout> {
    const row = await this.db.one<Payout>(sql`
      WITH created AS (
        INSERT INTO payouts (id, environment_id, organization_id, amount, status, automatic, bank, holder_name,
                             iban, next_attempt_at)
        VALUES (${p.id}, ${p.environmentId}, ${p.organizationId}, ${p.amount}, 'pending', ${p.automatic}, ${p.bank},
                ${p.holderName}, ${p.iban}, COALESCE(${p.nextAttemptAt ?? null}::timestamptz, now()))
        RETURNING *),
      event AS (${payoutEvent('payout-created')})
      SELECT ${payoutColumns('p')} FROM created p`);
    return row!;
  }

  /**
   * Leases up to `limit` payouts still with the bank (`pending`, `in_transit`) whose time to ask has
   * come, for `leaseMs`: several instances never ask about one payout at once, and a payout whose
   * sender died is asked about again once its lease ends.
   */
  claimUnsettled(limit: number, leaseMs: number, environmentId?: string): Promise<PayoutToSend[]> {
    return this.db.many<PayoutToSend>(sql`
      WITH claimed AS (
        UPDATE payouts SET next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}::float8),
                           attempts = attempts + 1
         WHERE id IN (SELECT id FROM payouts
                       WHERE status IN ('pending', 'in_transit') AND next_attempt_at <= now()
                         ${environmentId ? sql`AND environment_id = ${environmentId}` : raw('')}
                       ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING *)
      SELECT ${payoutColumns('p')}, ${environmentKindOf(raw('p.environment_id'))} AS environment FROM claimed p`);
  }

  /**
   * Moves a payout still with the bank to the gateway's answer, with its `payout-updated` event;
   * undefined when it had already reached that state or a final one (another sender was first).
   * A payout still in transit is asked about again after `retryMs`.
   */
  settle(id: string, outcome: PayoutOutcome, retryMs: number): Promise<Payout | undefined> {
    const reference = outcome.status === 'failed' ? null : outcome.bankReference;
    const reason = outcome.status === 'failed' ? outcome.reason : null;
    return this.db.one<Payout>(sql`
      WITH changed AS (
        UPDATE payouts
           SET status = ${outcome.status}, failure_reason = ${reason},
               bank_reference = COALESCE(${reference}::text, bank_reference),
               arrived_at = CASE WHEN ${outcome.status}::text = 'paid' THEN now() END,
               next_attempt_at = now() + make_interval(secs => ${retryMs / 1000}::float8),
               updated_at = now()
         WHERE id = ${id} AND status IN ('pending', 'in_transit') AND status <> ${outcome.status}
        RETURNING *),
      event AS (${payoutEvent('payout-updated')})
      SELECT ${payoutColumns('p')} FROM changed p`);
  }

  /** Asks about a payout in transit again after `retryMs`. */
  async retryLater(id: string, retryMs: number): Promise<void> {
    await this.db.exec(sql`
      UPDATE payouts SET next_attempt_at = now() + make_interval(secs => ${retryMs / 1000}::float8)
       WHERE id = ${id} AND status IN ('pending', 'in_transit')`);
  }

  byId(environmentId: string, id: string): Promise<Payout | undefined> {
    return this.db.one<Payout>(
      sql`SELECT ${payoutColumns('p')} FROM payouts p WHERE p.id = ${id} AND p.environment_id = ${environmentId}`,
    );
  }

  /** Newest first. */
  list(environmentId: string, filter: { status?: PayoutStatus }, page: Page) {
    return pageRows<Payout>(
      this.db,
      {
        select: payoutColumns('p'),
        from: sql`FROM payouts p WHERE ${and(listFilter(environmentId, filter))}`,
        orderBy: sql`p.created_at DESC, p.id DESC`,
      },
      page,
    );
  }

  /** Every payout the filter selects, newest first, in batches (the CSV export). */
  listAll(environmentId: string, filter: { status?: PayoutStatus }): AsyncGenerator<Payout[]> {
    return keysetBatches<Payout>(this.db, {
      select: payoutColumns('p'),
      from: sql`FROM payouts p`,
      alias: 'p',
      where: listFilter(environmentId, filter),
    });
  }
}

function listFilter(environmentId: string, filter: { status?: PayoutStatus }) {
  const where = [sql`p.environment_id = ${environmentId}`];
  if (filter.status !== undefined) where.push(sql`p.status = ${filter.status}`);
  return where;
}

/** The event of each payout of the CTE `created`/`changed` above (aliased `p`). */
function payoutEvent(kind: EventKind) {
  const source = kind === 'payout-created' ? 'created' : 'changed';
  return insertEventPerRow(sql`${raw(source)} p`, {
    organizationId: raw('p.organization_id'),
    environmentId: raw('p.environment_id'),
    kind,
    data: payoutJsonSql('p'),
    createdAt: raw('p.updated_at'),
  });
}
