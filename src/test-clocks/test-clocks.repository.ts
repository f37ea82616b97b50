import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { pageRows } from '../database/paging';
import { prepared, sql } from '../database/sql';
import { insertEventWhen } from '../webhooks/outbox';
import { TEST_CLOCK_COLUMNS, TestClock, toTestClockJson } from './test-clock';

/** Sandbox test clocks: every API statement filters by environment. */
@Injectable()
export class TestClocksRepository {
  constructor(private readonly db: Db) {}

  async insert(c: TestClock): Promise<TestClock> {
    return (await this.db.one<TestClock>(sql`
      INSERT INTO test_clocks AS t (id, organization_id, environment_id, name, frozen_time, position, status,
                                    created_at, updated_at)
      VALUES (${c.id}, ${c.organizationId}, ${c.environmentId}, ${c.name}, ${c.frozenTime}, ${c.position},
              ${c.status}, ${c.createdAt}, ${c.updatedAt})
      RETURNING ${TEST_CLOCK_COLUMNS}`))!;
  }

  byId(environmentId: string, id: string): Promise<TestClock | undefined> {
    return this.db.one<TestClock>(
      sql`SELECT ${TEST_CLOCK_COLUMNS} FROM test_clocks t WHERE t.id = ${id} AND t.environment_id = ${environmentId}`,
    );
  }

  /** The clock of this id, whatever its environment (a customer's, found from the customer). */
  find(id: string): Promise<TestClock | undefined> {
    return this.db.one<TestClock>(sql`SELECT ${TEST_CLOCK_COLUMNS} FROM test_clocks t WHERE t.id = ${id}`);
  }

  /** Locks the environment's clock until the transaction ends. */
  lock(environmentId: string, id: string): Promise<TestClock | undefined> {
    return this.db.one<TestClock>(sql`
      SELECT ${TEST_CLOCK_COLUMNS} FROM test_clocks t
       WHERE t.id = ${id} AND t.environment_id = ${environmentId} FOR UPDATE`);
  }

  /** Newest first. */
  list(environmentId: string, page: Page) {
    return pageRows<TestClock>(
      this.db,
      {
        select: TEST_CLOCK_COLUMNS,
        from: sql`FROM test_clocks t WHERE t.environment_id = ${environmentId}`,
        orderBy: sql`t.created_at DESC, t.id DESC`,
      },
      page,
    );
  }

  /** The environment's newest `limit` clocks, newest first (no count: a form's choices). */
  newest(environmentId: string, limit: number): Promise<TestClock[]> {
    return this.db.many<TestClock>(sql`
      SELECT ${TEST_CLOCK_COLUMNS} FROM test_clocks t WHERE t.environment_id = ${environmentId}
       ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`);
  }

  /** Sets the clock (locked, ready) advancing to `to`. */
  async startAdvance(id: string, to: Date, at: Date): Promise<TestClock> {
    return (await this.db.one<TestClock>(sql`
      UPDATE test_clocks t SET frozen_time = ${to}, status = 'advancing', claimed_by = NULL, claimed_until = NULL,
                               updated_at = ${at}
       WHERE t.id = ${id} RETURNING ${TEST_CLOCK_COLUMNS}`))!;
  }

  /**
   * Claims one advancing clock that no live claim holds (none, or one whose lease ran out: its
   * process died or stalled), for `worker` until `until`. FOR UPDATE SKIP LOCKED: two instances
   * claiming at once take different clocks.
   */
  claimAdvancing(worker: string, now: Date, until: Date): Promise<TestClock | undefined> {
    return this.db.one<TestClock>(sql`
      UPDATE test_clocks t SET claimed_by = ${worker}, claimed_until = ${until}
       WHERE t.id = (SELECT id FROM test_clocks
                      WHERE status = 'advancing' AND (claimed_until IS NULL OR claimed_until < ${now})
                      ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING ${TEST_CLOCK_COLUMNS}`);
  }

  /**
   * Records that the advance claimed by `worker` has done everything up to `position`, and extends
   * its lease: false when the claim is no longer its own (its lease ran out and another instance
   * took the clock over, or the clock was deleted), and the worker stops.
   */
  async moveTo(id: string, worker: string, position: Date, until: Date): Promise<boolean> {
    // After each moment of an advance: planned once per connection.
    const n = await this.db.exec(
      prepared(sql`
      UPDATE test_clocks SET position = ${position}, claimed_until = ${until}
       WHERE id = ${id} AND claimed_by = ${worker} AND status = 'advancing' AND position <= ${position}`),
    );
    return n === 1;
  }

  /** The advance claimed by `worker` is done: the clock is ready at its frozen time, with its `test-clock-ready`. */
  async finish(c: TestClock, worker: string, at: Date): Promise<boolean> {
    const ready: TestClock = { ...c, position: c.frozenTime, status: 'ready', updatedAt: at };
    const row = await this.db.one<{ n: number }>(sql`
      WITH finished AS (
        UPDATE test_clocks SET position = frozen_time, status = 'ready', claimed_by = NULL, claimed_until = NULL,
                               updated_at = ${at}
         WHERE id = ${c.id} AND claimed_by = ${worker} AND status = 'advancing'
        RETURNING id
      ), event AS (${insertEventWhen('finished', {
        organizationId: c.organizationId,
        environmentId: c.environmentId,
        kind: 'test-clock-ready',
        data: toTestClockJson(ready),
        createdAt: at,
      })})
      SELECT count(*)::int AS n FROM finished`);
    return row!.n === 1;
  }

  /** Deletes the clock: its customers go with it (ON DELETE CASCADE), and so their subscriptions and invoices. */
  async delete(environmentId: string, id: string): Promise<boolean> {
    const n = await this.db.exec(
      sql`DELETE FROM test_clocks WHERE id = ${id} AND environment_id = ${environmentId}`,
    );
    return n === 1;
  }
}
