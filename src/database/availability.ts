import { Logger } from '@nestjs/common';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable';

/**
 * Whether PostgreSQL answers, as the statements of this instance find it: `Db` reports every
 * statement's outcome here, so an outage is logged once when it starts and once when it ends,
 * never once per request or per poll of a job. A job that fails asks `failed(err)` whether the
 * database being away explains it (then it says nothing more and tries again on its next tick).
 */
export class DatabaseAvailability {
  private readonly logger = new Logger('Database');
  private unavailableSince: number | null = null;

  get available(): boolean {
    return this.unavailableSince === null;
  }

  /**
   * Records a failure: true when it is PostgreSQL being unreachable (the first such failure is
   * logged), false for any other error, which the caller reports as it would.
   */
  failed(err: unknown): boolean {
    if (!isDatabaseUnavailable(err)) return false;
    if (this.unavailableSince === null) {
      this.unavailableSince = Date.now();
      this.logger.warn(
        `PostgreSQL is unreachable (${String((err as { message?: unknown }).message)}): requests answer 503 and jobs wait until it is back`,
      );
    }
    return true;
  }

  /** A statement succeeded: when the database had been away, logs its return. */
  succeeded(): void {
    if (this.unavailableSince === null) return;
    const seconds = ((Date.now() - this.unavailableSince) / 1000).toFixed(1);
    this.unavailableSince = null;
    this.logger.log(`PostgreSQL is reachable again after ${seconds} s`);
  }
}
