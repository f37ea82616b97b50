import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';

/** After a failure, the replica is left alone this long: reads go to the leader meanwhile. */
export const REPLICA_RETRY_AFTER_MS = 5_000;
/** How old a measure of the replica's lag may be before a read asks for a new one (in the background). */
const LAG_SAMPLE_MS = 2_000;

/**
 * How far behind the leader the replica has applied, in seconds: 0 when it has replayed all it
 * received (an idle leader sends nothing, so the last replayed transaction's age is no lag), else
 * the age of the last transaction it replayed. Null on a server that is not a standby.
 */
const LAG_QUERY = `SELECT CASE
    WHEN NOT pg_is_in_recovery() THEN NULL
    WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
    ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8
  END AS lag`;

/**
 * The read replica of `DATABASE_READ_URL` (docs/operations.md, "Read replica"): its pool, and
 * whether reads may go to it — not while it failed within the last few seconds, nor while it is
 * further behind the leader than `maxLagMs`. Every read it cannot take goes to the leader.
 */
export class ReadReplica {
  private readonly logger = new Logger('Database');
  private downUntil = 0;
  private lag: { seconds: number | null; at: number } | undefined;
  private sampling: Promise<number | null> | undefined;

  constructor(
    readonly pool: Pool,
    private readonly maxLagMs: number,
  ) {}

  /** Whether a read may go to the replica now; starts a new measure of its lag when the last is old. */
  get usable(): boolean {
    const now = Date.now();
    if (now < this.downUntil) return false;
    if (!this.lag || now - this.lag.at > LAG_SAMPLE_MS) void this.measureLag();
    // Until it is first measured, the replica is trusted: a failure sends reads back to the leader.
    const seconds = this.lag ? this.lag.seconds : 0;
    return seconds !== null && seconds * 1000 <= this.maxLagMs;
  }

  /** A read failed on it for want of a connection: the leader takes the reads for a while. */
  failed(err: unknown): void {
    if (Date.now() >= this.downUntil)
      this.logger.warn(
        `The read replica is unreachable (${String((err as { message?: unknown }).message)}): reads go to the leader`,
      );
    this.downUntil = Date.now() + REPLICA_RETRY_AFTER_MS;
  }

  /** Its lag in seconds, measured now (null: unreachable, or not a standby). */
  measureLag(): Promise<number | null> {
    this.sampling ??= this.pool
      .query<{ lag: number | null }>(LAG_QUERY)
      .then(
        (r) => r.rows[0].lag,
        (err: unknown) => {
          this.failed(err);
          return null;
        },
      )
      .then((seconds) => {
        this.lag = { seconds, at: Date.now() };
        this.sampling = undefined;
        return seconds;
      });
    return this.sampling;
  }
}
