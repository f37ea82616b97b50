import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { sql } from '../database/sql';

/**
 * Where polling of each bank gateway stands (`transfer_poll_cursors`): its cursor and the lease
 * of the one instance polling it. Leases are measured by the database's clock, so instances with
 * different clocks agree on when one runs out.
 */
@Injectable()
export class PollCursorsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes the gateway's lease for `leaseMs` when nobody holds it (or its holder's ran out), the
   * gateway's row made on its first poll: its cursor (null before the first page), or undefined
   * when another instance holds the lease.
   */
  async claim(
    gateway: string,
    holder: string,
    leaseMs: number,
  ): Promise<{ cursor: string | null } | undefined> {
    return this.db.one<{ cursor: string | null }>(sql`
      INSERT INTO transfer_poll_cursors AS c (gateway, cursor, claimed_by, claimed_until, updated_at)
      VALUES (${gateway}, NULL, ${holder}, now() + make_interval(secs => ${leaseMs / 1000}), now())
      ON CONFLICT (gateway) DO UPDATE
         SET claimed_by = EXCLUDED.claimed_by, claimed_until = EXCLUDED.claimed_until, updated_at = now()
       WHERE c.claimed_until IS NULL OR c.claimed_until < now()
      RETURNING c.cursor`);
  }

  /**
   * Moves the cursor past a page whose transfers are stored, and renews the lease, only while
   * `holder` still holds it: false when it was lost (ran out and taken by another instance),
   * whose own poll then reads from the cursor as it was (reading twice is harmless: the
   * transfers are stored once).
   */
  async advance(gateway: string, holder: string, cursor: string, leaseMs: number): Promise<boolean> {
    return (
      (await this.db.exec(sql`
        UPDATE transfer_poll_cursors
           SET cursor = ${cursor}, claimed_until = now() + make_interval(secs => ${leaseMs / 1000}),
               polled_at = now(), updated_at = now()
         WHERE gateway = ${gateway} AND claimed_by = ${holder}`)) === 1
    );
  }

  /** Gives the lease back (when `holder` still has it): the next tick of any instance may poll. */
  async release(gateway: string, holder: string): Promise<void> {
    await this.db.exec(sql`
      UPDATE transfer_poll_cursors SET claimed_by = NULL, claimed_until = NULL, updated_at = now()
       WHERE gateway = ${gateway} AND claimed_by = ${holder}`);
  }

  /** The gateway's cursor (tests, operations). */
  async cursorOf(gateway: string): Promise<string | null | undefined> {
    return (
      await this.db.one<{ cursor: string | null }>(
        sql`SELECT cursor FROM transfer_poll_cursors WHERE gateway = ${gateway}`,
      )
    )?.cursor;
  }
}
