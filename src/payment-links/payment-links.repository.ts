import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import type { Language } from '../common/i18n/languages';
import { Db } from '../database/db';
import { cursorColumn, KeysetPage, keysetClauses, keysetPage, KeysetQuery } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, join, raw, Sql, sql } from '../database/sql';
import type { VerificationStatus } from '../organizations/verification';
import { ENVIRONMENTS_WITH_ORGANIZATIONS } from '../organizations/organizations.fragments';
import type { EnvironmentKind } from '../organizations/tenant';
import { linkPlacesOf, linkTotalsOf } from '../payment-requests/payment-requests.fragments';
import { LINK_COLUMNS, PaymentLink } from './payment-link';

/** A link's row with its totals as the statement reads them. */
type LinkRow = Omit<PaymentLink, 'paymentsCount' | 'amountCollected'> & {
  totals: { count: number; amount: number };
};

/** The columns of a link under the alias `l`, with its totals (its paid requests). */
const LINK_WITH_TOTALS = sql`${LINK_COLUMNS}, ${linkTotalsOf(raw('l.id'))} AS totals`;

function fromRow({ totals, ...row }: LinkRow): PaymentLink {
  return { ...row, paymentsCount: totals.count, amountCollected: Number(totals.amount) };
}

/** A link as its page shows it: with the merchant, the environment and, when limited, its places. */
export interface LinkPageRow extends PaymentLink {
  environment: EnvironmentKind;
  organizationId: string;
  verification: VerificationStatus;
  merchantName: string;
  /** The merchant's public support phone ('' when none) and website. */
  merchantPhone: string;
  merchantWebsite: string | null;
  /** Its requests paid and its places taken; null without `maxPayments`. */
  places: { paid: number; taken: number } | null;
}

export interface NewPaymentLink {
  id: string;
  environmentId: string;
  code: string;
  name: string;
  description: string | null;
  amount: number | null;
  minAmount: number | null;
  maxAmount: number | null;
  maxPayments: number | null;
  expiresAt: Date | null;
  successMessage: string | null;
  language: Language;
  createdAt: Date;
}

export interface PaymentLinkChanges {
  name?: string;
  description?: string | null;
  active?: boolean;
  maxPayments?: number | null;
  expiresAt?: Date | null;
  successMessage?: string | null;
}

/** What starting a payment needs of the link, read under its row lock. */
export interface LockedLink {
  /** The number of the request this payment makes (`link_<code>_<n>`). */
  n: number;
  active: boolean;
  expiresAt: Date | null;
  maxPayments: number | null;
}

/** Payment links: environment-scoped; the page finds one by its code alone. */
@Injectable()
export class PaymentLinksRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the link; false when its code is taken (the caller draws another). */
  async insert(l: NewPaymentLink): Promise<boolean> {
    const changed = await this.db.exec(sql`
      INSERT INTO payment_links (id, environment_id, code, name, description, amount, min_amount, max_amount,
                                 max_payments, expires_at, success_message, language, created_at, updated_at)
      VALUES (${l.id}, ${l.environmentId}, ${l.code}, ${l.name}, ${l.description}, ${l.amount}, ${l.minAmount},
              ${l.maxAmount}, ${l.maxPayments}, ${l.expiresAt}, ${l.successMessage}, ${l.language}, ${l.createdAt}, ${l.createdAt})
      ON CONFLICT (code) DO NOTHING`);
    return changed > 0;
  }

  async byId(environmentId: string, id: string): Promise<PaymentLink | undefined> {
    const row = await this.db.one<LinkRow>(sql`
      SELECT ${LINK_WITH_TOTALS} FROM payment_links l WHERE l.id = ${id} AND l.environment_id = ${environmentId}`);
    return row && fromRow(row);
  }

  /** Newest first; `active` filters. */
  async list(environmentId: string, filter: { active?: boolean }, page: Page) {
    const where = [sql`l.environment_id = ${environmentId}`];
    if (filter.active !== undefined) where.push(sql`l.active = ${filter.active}`);
    const { rows, total } = await pageRows<LinkRow>(
      this.db,
      {
        select: LINK_WITH_TOTALS,
        from: sql`FROM payment_links l WHERE ${and(where)}`,
        orderBy: sql`l.created_at DESC, l.id DESC`,
      },
      page,
    );
    return { items: rows.map(fromRow), total };
  }

  /** A keyset page of the environment's links, newest first (the dashboard's list, on payment_links_list_idx). */
  async search(environmentId: string, page: KeysetQuery): Promise<KeysetPage<PaymentLink>> {
    const k = keysetClauses('l', page);
    const rows = await this.db.many<LinkRow & { cursor: string }>(sql`
      SELECT ${LINK_WITH_TOTALS}, ${cursorColumn('l')} FROM payment_links l
       WHERE ${and([sql`l.environment_id = ${environmentId}`, ...k.where])}
       ORDER BY ${k.orderBy} LIMIT ${k.limit}`);
    const result = keysetPage(rows, page);
    return { ...result, items: result.items.map(fromRow) };
  }

  /** Changes a link of the environment; undefined when there is none. */
  async update(
    environmentId: string,
    id: string,
    changes: PaymentLinkChanges,
  ): Promise<PaymentLink | undefined> {
    const set: Sql[] = [sql`updated_at = now()`];
    if (changes.name !== undefined) set.push(sql`name = ${changes.name}`);
    if (changes.description !== undefined) set.push(sql`description = ${changes.description}`);
    if (changes.active !== undefined) set.push(sql`active = ${changes.active}`);
    if (changes.maxPayments !== undefined) set.push(sql`max_payments = ${changes.maxPayments}`);
    if (changes.expiresAt !== undefined) set.push(sql`expires_at = ${changes.expiresAt}`);
    if (changes.successMessage !== undefined) set.push(sql`success_message = ${changes.successMessage}`);
    const row = await this.db.one<LinkRow>(sql`
      UPDATE payment_links l SET ${join(set)}
       WHERE l.id = ${id} AND l.environment_id = ${environmentId}
      RETURNING ${LINK_WITH_TOTALS}`);
    return row && fromRow(row);
  }

  /** The link of a code, as its page shows it, in one statement; its places only when it limits them. */
  async forPage(code: string): Promise<LinkPageRow | undefined> {
    const row = await this.db.one<LinkRow & Omit<LinkPageRow, keyof PaymentLink>>(sql`
      SELECT ${LINK_WITH_TOTALS}, e.kind AS environment, e.organization_id AS "organizationId",
             o.verification_status AS verification, o.name AS "merchantName",
             o.support_phone AS "merchantPhone", o.website AS "merchantWebsite",
             CASE WHEN l.max_payments IS NOT NULL THEN ${linkPlacesOf(raw('l.id'))} END AS places
        FROM payment_links l
        JOIN (${ENVIRONMENTS_WITH_ORGANIZATIONS}) ON e.id = l.environment_id
       WHERE l.code = ${code}`);
    if (!row) return undefined;
    // fromRow keeps the page's columns beside the link's.
    return fromRow(row) as LinkPageRow;
  }

  /**
   * Locks the link's row (every payment started through the link takes this lock first, so its
   * places are counted one payment at a time, on any instance) and numbers the request about to
   * be made. Rolled back with the payment it starts when that is refused.
   */
  lockForPayment(id: string): Promise<LockedLink | undefined> {
    return this.db.one<LockedLink>(sql`
      UPDATE payment_links SET requests_started = requests_started + 1
       WHERE id = ${id}
      RETURNING requests_started AS n, active, expires_at AS "expiresAt", max_payments AS "maxPayments"`);
  }

  /**
   * The link's requests paid and its places taken, read after `lockForPayment` in a statement of
   * its own, so that its snapshot includes what the previous holder of the lock committed.
   */
  async placesOf(id: string): Promise<{ paid: number; taken: number }> {
    const row = await this.db.one<{ places: { paid: number; taken: number } }>(
      sql`SELECT ${linkPlacesOf(sql`${id}::uuid`)} AS places`,
    );
    return row!.places;
  }
}
