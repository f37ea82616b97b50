import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { idempotencyError, IdempotencyError } from './idempotency.errors';
import {
  IdempotencyRepository,
  isKeyTaken,
  KeyedWrite,
  KeyedWriteRow,
  StoredAnswer,
} from './idempotency.repository';
import { KeyRecord } from './idempotency.fragments';
import type { RequestKey } from './request-key';

/** Thrown to answer a request with its key's stored answer (`IdempotencyKeyRunner` sends it, marked replayed). */
export class IdempotentReplay extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}

/**
 * Idempotent retries, for any route: the first request with a key runs and its answer
 * is recorded in its own transaction; a retry gets that answer again, a different request with the
 * key 400, and a request while the first still runs 409. "Still runs" is a PostgreSQL advisory lock
 * on the key held by the first request's transaction, so it holds across instances.
 */
@Injectable()
export class IdempotencyKeyRecords {
  constructor(
    private readonly db: Db,
    private readonly repo: IdempotencyRepository,
  ) {}

  /**
   * The generic way: runs the request in a transaction that first takes the key (without waiting)
   * and reads its record, and records the answer (`status` and the JSON of what `run` returns)
   * before committing. A request that fails rolls back, its change and key alike: nothing is
   * recorded and the key may be used again. Returns the body sent.
   */
  async runOnce(key: RequestKey, status: number, run: () => Promise<unknown>): Promise<string> {
    try {
      return await this.db.transaction(async () => {
        const { locked, record } = await this.repo.claim(key);
        if (!locked) throw idempotencyError(IdempotencyError.InProgress);
        if (record) this.answer(key, record);
        const result = await run();
        const body = result === undefined ? '' : JSON.stringify(result);
        await this.repo.insert(key, { status, body });
        return body;
      });
    } catch (err) {
      // The first request committed between our claim's snapshot and its lock: ours was undone.
      if (isKeyTaken(err)) this.answer(key, await this.recordOf(key));
      throw err;
    }
  }

  /**
   * For a change made by one statement, which claims, checks and records the key itself (see
   * `KeyedWrite`): no transaction, no extra round trip. `changed` says whether the statement made
   * the change. Returns the row when it did; throws the key's answer when the key was held or
   * used; null when the key was free but the change was refused (the route's own conflict), in
   * which case nothing was recorded.
   */
  async writeOnce<R extends KeyedWriteRow>(
    key: RequestKey,
    answer: StoredAnswer,
    write: (claim: KeyedWrite) => Promise<R>,
    changed: (row: R) => boolean,
  ): Promise<R | null> {
    let row: R;
    try {
      row = await write(new KeyedWrite(key, answer));
    } catch (err) {
      if (isKeyTaken(err)) this.answer(key, await this.recordOf(key));
      throw err;
    }
    if (!row.idem_locked) throw idempotencyError(IdempotencyError.InProgress);
    if (row.idem_record) this.answer(key, row.idem_record);
    if (changed(row)) return row;
    // Refused although the key looked free: the first request with it may have committed (and
    // made the change) after this statement's snapshot. Its answer wins over our conflict.
    const record = await this.repo.find(key);
    if (record) this.answer(key, record);
    return null;
  }

  /** True when the key has a record (in its scope). */
  async used(key: RequestKey): Promise<boolean> {
    return (await this.repo.find(key)) !== null;
  }

  /** Answers with a record: its stored answer when the request is the same, else 400. */
  answer(key: RequestKey, record: KeyRecord): never {
    if (!key.sameRequest(record.requestHash) || record.status === null || record.body === null)
      throw idempotencyError(IdempotencyError.KeyReused);
    throw new IdempotentReplay({ status: record.status, body: record.body });
  }

  private async recordOf(key: RequestKey): Promise<KeyRecord> {
    const record = await this.repo.find(key);
    // Recorded by the request that won, and kept 24 h: it cannot be missing.
    if (!record) throw new Error('idempotency key taken but not found');
    return record;
  }
}
