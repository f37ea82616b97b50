import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { raw, Sql, sql } from '../database/sql';
import { KEY_COLUMNS, KeyRecord, recordOf } from './idempotency.fragments';
import type { RequestKey } from './request-key';

/** An answer to give again. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/**
 * The parts a statement that makes its whole change at once adds to itself so that the key is
 * claimed, checked and recorded in that very statement (no transaction, no extra round trip):
 *
 *   WITH ${w.ctes}, created AS (INSERT ... SELECT ... ${w.whenFree} ...), ..., ${w.record('created')}
 *   SELECT ..., ${w.outcome}
 *
 * The change is made only when this request holds the key's lock and the key has no record; the
 * answer is recorded when the CTE named in `record` produced a row. A key taken by a request that
 * committed meanwhile fails the statement with a unique violation, undoing the change. Run such a
 * statement `prepared`: its parse and plan cost more than the key's own work.
 */
export class KeyedWrite {
  constructor(
    private readonly key: RequestKey,
    private readonly answer: StoredAnswer,
  ) {}

  /** `idem`: the key's advisory lock (held until the statement commits) and its record. */
  get ctes(): Sql {
    return sql`idem AS (SELECT pg_try_advisory_xact_lock(${this.key.lockId}::bigint) AS locked, ${recordOf(this.key)} AS record)`;
  }

  /** The FROM and WHERE of the change's SELECT: one row when this request holds the key and the key has no record. */
  readonly whenFree = raw('FROM idem WHERE idem.locked AND idem.record IS NULL');

  /** `idem_record`: the answer, recorded when `source` produced a row. */
  record(source: string): Sql {
    const k = this.key;
    return sql`idem_record AS (
      INSERT INTO idempotency_keys (${KEY_COLUMNS}, status, body)
      SELECT ${k.id}, ${k.environmentId}, ${k.checkoutSessionId}, ${k.requestHash}, ${this.answer.status}, ${this.answer.body}
        FROM ${raw(source)} LIMIT 1
      RETURNING 1)`;
  }

  /** The select-list items `IdempotencyKeyRecords.writeOnce` reads: `idem_locked`, `idem_record`. */
  readonly outcome = raw(
    '(SELECT locked FROM idem) AS idem_locked, (SELECT record FROM idem) AS idem_record',
  );
}

/** The row of a statement built with `KeyedWrite`. */
export interface KeyedWriteRow {
  idem_locked: boolean;
  idem_record: KeyRecord | null;
}

/** Idempotency-Key records. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /**
   * In the transaction of the key's first request: takes the key's advisory lock without waiting
   * (false: another request holds it, on any instance) and reads its record.
   */
  async claim(key: RequestKey): Promise<{ locked: boolean; record: KeyRecord | null }> {
    return (await this.db.one<{ locked: boolean; record: KeyRecord | null }>(
      sql`SELECT pg_try_advisory_xact_lock(${key.lockId}::bigint) AS locked, ${recordOf(key)} AS record`,
    ))!;
  }

  async find(key: RequestKey): Promise<KeyRecord | null> {
    const row = await this.db.one<{ record: KeyRecord | null }>(sql`SELECT ${recordOf(key)} AS record`);
    return row?.record ?? null;
  }

  /** Records the answer of the key's first request (a plain insert: a taken key is a unique violation). */
  async insert(key: RequestKey, answer: StoredAnswer): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO idempotency_keys (${KEY_COLUMNS}, status, body)
      VALUES (${key.id}, ${key.environmentId}, ${key.checkoutSessionId}, ${key.requestHash}, ${answer.status}, ${answer.body})`);
  }

  /**
   * Deletes up to `limit` records older than `maxAgeMs`, oldest first, skipping rows another
   * instance's run holds (FOR UPDATE SKIP LOCKED). The number deleted.
   */
  deleteExpired(maxAgeMs: number, limit: number): Promise<number> {
    return this.db.exec(sql`
      DELETE FROM idempotency_keys WHERE id IN (
        SELECT id FROM idempotency_keys
         WHERE created_at < now() - ${maxAgeMs}::bigint * interval '1 millisecond'
         ORDER BY created_at
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED)`);
  }
}

/** True for the unique violation of a key another request recorded first. */
export function isKeyTaken(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && e.constraint === 'idempotency_keys_pkey';
}
