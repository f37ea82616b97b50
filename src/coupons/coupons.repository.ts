import { Injectable } from '@nestjs/common';
import { DatabaseError } from 'pg';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { pageRows } from '../database/paging';
import { sql } from '../database/sql';
import { Coupon, COUPON_COLUMNS } from './coupon';

const isCodeTaken = (err: unknown) =>
  err instanceof DatabaseError && err.code === '23505' && err.constraint === 'coupons_code_key';

/** Coupons: organization-scoped, every statement filters by organization. */
@Injectable()
export class CouponsRepository {
  constructor(private readonly db: Db) {}

  /** The new coupon, or null when its code is taken in the organization. */
  async insert(c: Coupon, at: Date): Promise<Coupon | null> {
    try {
      return (await this.db.one<Coupon>(sql`
        INSERT INTO coupons AS k (id, organization_id, code, percent_off, amount_off, duration, duration_in_periods,
                                  max_redemptions, expires_at, created_at, updated_at)
        VALUES (${c.id}, ${c.organizationId}, ${c.code}, ${c.percentOff}, ${c.amountOff}, ${c.duration},
                ${c.durationInPeriods}, ${c.maxRedemptions}, ${c.expiresAt}, ${at}, ${at})
        RETURNING ${COUPON_COLUMNS}`))!;
    } catch (err) {
      if (isCodeTaken(err)) return null;
      throw err;
    }
  }

  byId(organizationId: string, id: string): Promise<Coupon | undefined> {
    return this.db.one<Coupon>(
      sql`SELECT ${COUPON_COLUMNS} FROM coupons k WHERE k.id = ${id} AND k.organization_id = ${organizationId}`,
    );
  }

  /** Newest first. */
  list(organizationId: string, page: Page) {
    return pageRows<Coupon>(
      this.db,
      {
        select: COUPON_COLUMNS,
        from: sql`FROM coupons k WHERE k.organization_id = ${organizationId}`,
        orderBy: sql`k.created_at DESC, k.id DESC`,
      },
      page,
    );
  }

  archive(organizationId: string, id: string, at: Date): Promise<Coupon | undefined> {
    return this.db.one<Coupon>(sql`
      UPDATE coupons k SET archived = true, updated_at = ${at}
       WHERE k.id = ${id} AND k.organization_id = ${organizationId}
      RETURNING ${COUPON_COLUMNS}`);
  }

  /**
   * Redeems the organization's coupon of this id or code once, if it is still valid at `at`: not
   * archived, not expired, not exhausted. One conditional update: concurrent redemptions wait on
   * the row's lock and recheck the count, so no more than `max_redemptions` ever pass. Undefined
   * when it is not valid (or not found).
   */
  redeem(organizationId: string, idOrCode: string, at: Date): Promise<Coupon | undefined> {
    const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrCode);
    const which = isId ? sql`k.id = ${idOrCode}::uuid` : sql`k.code = ${idOrCode}`;
    return this.db.one<Coupon>(sql`
      UPDATE coupons k SET times_redeemed = k.times_redeemed + 1, updated_at = ${at}
       WHERE k.organization_id = ${organizationId} AND ${which} AND NOT k.archived
         AND (k.expires_at IS NULL OR k.expires_at > ${at})
         AND (k.max_redemptions IS NULL OR k.times_redeemed < k.max_redemptions)
      RETURNING ${COUPON_COLUMNS}`);
  }
}
