import { Injectable } from '@nestjs/common';
import { DatabaseError } from 'pg';
import type { Page } from '../common/pagination';
import { normalizePhone } from '../common/validation/rules';
import { Db } from '../database/db';
import { cursorColumn, KeysetPage, keysetClauses, keysetPage, KeysetQuery } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, join, raw, Sql, sql } from '../database/sql';
import { Customer, CUSTOMER_COLUMNS, CustomerLanguage } from './customer';

/** The unique index that keeps externalUserId unique within an organization. */
const EXTERNAL_USER_KEY = 'customers_external_user_key';

const isExternalUserIdTaken = (err: unknown) =>
  err instanceof DatabaseError && err.code === '23505' && err.constraint === EXTERNAL_USER_KEY;

/*
 * Parts of other modules' statements (invoices, subscriptions): their rows shown with their customer.
 */

/** Customers: organization-scoped, every statement filters by organization. */
@Injectable()
export class CustomersRepository {
  constructor(private readonly db: Db) {}

  /** The new customer, or null when the organization already has one with its externalUserId. */
  async insert(c: Customer): Promise<Customer | null> {
    const row = await this.db.one<Customer>(sql`
      INSERT INTO customers AS c (id, organization_id, external_user_id, phone, language, test_clock_id, created_at,
                                  updated_at)
      VALUES (${c.id}, ${c.organizationId}, ${c.externalUserId}, ${c.phone}, ${c.language}, ${c.testClockId},
              ${c.createdAt}, ${c.updatedAt})
      ON CONFLICT (organization_id, external_user_id) DO NOTHING
      RETURNING ${CUSTOMER_COLUMNS}`);
    return row ?? null;
  }

  /**
   * The customer with this externalUserId, created when the organization has none; a given phone
   * replaces the stored one. One statement, so concurrent calls for one new user make one customer.
   */
  async upsert(c: Customer): Promise<Customer> {
    return (await this.db.one<Customer>(sql`
      INSERT INTO customers AS c (id, organization_id, external_user_id, phone, created_at, updated_at)
      VALUES (${c.id}, ${c.organizationId}, ${c.externalUserId}, ${c.phone}, ${c.createdAt}, ${c.updatedAt})
      ON CONFLICT (organization_id, external_user_id) DO UPDATE
        SET phone = COALESCE(EXCLUDED.phone, c.phone),
            updated_at = CASE WHEN EXCLUDED.phone IS DISTINCT FROM c.phone AND EXCLUDED.phone IS NOT NULL
                              THEN EXCLUDED.updated_at ELSE c.updated_at END
      RETURNING ${CUSTOMER_COLUMNS}`))!;
  }

  /**
   * Locks the customers as updating their credit does (FOR NO KEY UPDATE: not waiting for, nor
   * blocking, the key share a new subscription or invoice of theirs takes), in id order.
   */
  async lockCredits(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.many<{ id: string; credit: number }>(sql`
      SELECT id, credit_balance AS credit FROM customers WHERE id = ANY(${ids}::uuid[]) ORDER BY id FOR NO KEY UPDATE`);
    return new Map(rows.map((r) => [r.id, r.credit]));
  }

  byId(organizationId: string, id: string): Promise<Customer | undefined> {
    return this.db.one<Customer>(
      sql`SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.id = ${id} AND c.organization_id = ${organizationId}`,
    );
  }

  /** The ids of the organization's customers with this (normalised) phone (customers_phone_idx). */
  async idsByPhone(organizationId: string, phone: string): Promise<string[]> {
    const rows = await this.db.many<{ id: string }>(sql`
      SELECT c.id FROM customers c WHERE c.organization_id = ${organizationId} AND c.phone = ${phone}`);
    return rows.map((r) => r.id);
  }

  byExternalUserId(organizationId: string, externalUserId: string): Promise<Customer | undefined> {
    return this.db.one<Customer>(sql`
      SELECT ${CUSTOMER_COLUMNS} FROM customers c
       WHERE c.organization_id = ${organizationId} AND c.external_user_id = ${externalUserId}`);
  }

  /**
   * Applies the given changes; undefined when there is no such customer, 'taken' when the new
   * externalUserId belongs to another customer of the organization.
   */
  async update(
    organizationId: string,
    id: string,
    changes: { externalUserId?: string; phone?: string | null; language?: CustomerLanguage },
  ): Promise<Customer | undefined | 'taken'> {
    const set: Sql[] = [sql`updated_at = now()`];
    if (changes.externalUserId !== undefined) set.push(sql`external_user_id = ${changes.externalUserId}`);
    if (changes.phone !== undefined) set.push(sql`phone = ${changes.phone}`);
    if (changes.language !== undefined) set.push(sql`language = ${changes.language}`);
    try {
      return await this.db.one<Customer>(sql`
        UPDATE customers c SET ${join(set)}
         WHERE c.id = ${id} AND c.organization_id = ${organizationId}
        RETURNING ${CUSTOMER_COLUMNS}`);
    } catch (err) {
      if (isExternalUserIdTaken(err)) return 'taken';
      throw err;
    }
  }

  /** Newest first; filters combine. */
  async list(organizationId: string, filter: { id?: string; externalUserId?: string }, page: Page) {
    const where = [sql`c.organization_id = ${organizationId}`];
    if (filter.id !== undefined) where.push(sql`c.id = ${filter.id}`);
    if (filter.externalUserId !== undefined) where.push(sql`c.external_user_id = ${filter.externalUserId}`);
    return pageRows<Customer>(
      this.db,
      {
        select: CUSTOMER_COLUMNS,
        from: sql`FROM customers c WHERE ${and(where)}`,
        orderBy: sql`c.created_at DESC, c.id DESC`,
      },
      page,
    );
  }

  /**
   * A keyset page of the organization's customers, newest first (the dashboard's list). `q` matches
   * exactly an externalUserId or a phone number (normalised as the API does): each by its own index
   * (customers_external_user_key, customers_phone_idx), the list by customers_list_idx.
   */
  async search(
    organizationId: string,
    filter: { q?: string; testClockId?: string },
    page: KeysetQuery,
  ): Promise<KeysetPage<Customer>> {
    const where = [sql`c.organization_id = ${organizationId}`];
    if (filter.testClockId !== undefined) where.push(sql`c.test_clock_id = ${filter.testClockId}`);
    if (filter.q !== undefined) {
      const any = [sql`c.external_user_id = ${filter.q}`];
      const phone = normalizePhone(filter.q);
      if (phone) any.push(sql`c.phone = ${phone}`);
      where.push(any.length === 1 ? any[0] : sql`(${join(any, raw(' OR '))})`);
    }
    const k = keysetClauses('c', page);
    const rows = await this.db.many<Customer & { cursor: string }>(sql`
      SELECT ${CUSTOMER_COLUMNS}, ${cursorColumn('c')} FROM customers c
       WHERE ${and([...where, ...k.where])} ORDER BY ${k.orderBy} LIMIT ${k.limit}`);
    return keysetPage(rows, page);
  }
}
