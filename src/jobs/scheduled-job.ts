import { BeforeApplicationShutdown, Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig, JobSwitch } from '../config/config';
import { DatabaseAvailability } from '../database/availability';

/** The settings that hold a number of milliseconds (an interval that is also a job's switch). */
type MillisecondsSetting = {
  [K in keyof AppConfig]-?: AppConfig[K] extends number ? K : never;
}[keyof AppConfig];

/** When a job runs, and what turns it on (docs/operations.md, "Jobs"). */
export interface JobSchedule {
  /** The job's name in the logs and in docs/operations.md: its file's name, `<name>.job.ts`. */
  readonly name: string;
  /** Milliseconds between two ticks, or the setting that holds them. */
  readonly every: number | MillisecondsSetting;
  /** The setting that turns the job on on this instance: `true`, or an interval above 0. */
  readonly switch: JobSwitch;
}

export const MINUTE_MS = 60_000;

/**
 * A job every instance may run on a timer: a subclass says when (`schedule`) and what one tick does
 * (`work`); this class holds what every job needs and none should write again:
 * - the switch: no timer at all on an instance where it is off (the test apps, unless a test turns
 *   it on), and a tick finds it off again if it was turned off since;
 * - the overlap guard: a tick that finds the previous one still running does nothing (one run at a
 *   time per instance; the work's claims keep instances apart);
 * - the outage line: a tick that fails because PostgreSQL is away says nothing of its own
 *   (`DatabaseAvailability` logs the outage once, and its end); any other failure is one line;
 * - the drain: on shutdown no tick starts, `stopping` turns true (a job that loops over batches
 *   stops after its current one), and the close waits for the tick in progress, before the
 *   database pool closes (that happens after every `beforeApplicationShutdown`).
 */
export abstract class ScheduledJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  abstract readonly schedule: JobSchedule;

  // Injected as properties, so a job's constructor takes only what its work needs.
  @Inject(AppConfig) private readonly jobConfig!: AppConfig;
  @Inject(DatabaseAvailability) private readonly jobAvailability!: DatabaseAvailability;

  readonly #logger = new Logger(this.constructor.name);
  #timer?: NodeJS.Timeout;
  #inProgress: Promise<void> | null = null;
  #closing = false;

  /**
   * What one tick does. It may return what it did, counted (e.g. `{ expired: 3 }`): logged, with
   * the time taken, when a count is above 0. It may throw: the next tick tries again.
   */
  protected abstract work(): Promise<object | void>;

  /** Whether the job's switch is on on this instance. */
  get isOn(): boolean {
    const value = this.jobConfig[this.schedule.switch];
    return value === true || (typeof value === 'number' && value > 0);
  }

  /** Whether this instance's timer runs the job. */
  get isScheduled(): boolean {
    return this.#timer !== undefined;
  }

  /** Milliseconds between two ticks on this instance. */
  get intervalMs(): number {
    const every = this.schedule.every;
    return typeof every === 'number' ? every : this.jobConfig[every];
  }

  /** True once the application closes: a job that loops over batches stops after its current one. */
  protected get stopping(): boolean {
    return this.#closing;
  }

  onApplicationBootstrap(): void {
    if (!this.isOn) return;
    this.#timer = setInterval(() => void this.tick(), this.intervalMs);
    // The job never keeps a process alive by itself: the HTTP server does, until the close.
    this.#timer.unref();
  }

  /**
   * One tick, as the timer makes it: nothing when the switch is off, when the application closes,
   * or while the previous tick still runs (it returns at once, without waiting for that one).
   */
  async tick(): Promise<void> {
    if (this.#inProgress || this.#closing || !this.isOn) return;
    const started = Date.now();
    const name = this.schedule.name;
    const run = (async () => {
      try {
        const counts = await this.work();
        if (counts && Object.values(counts).some((n) => typeof n === 'number' && n > 0))
          this.#logger.log({ ...counts, ms: Date.now() - started }, name);
      } catch (err) {
        if (!this.jobAvailability.failed(err))
          this.#logger.error({ err }, `${name} failed; tried again on the next tick`);
      }
    })();
    // Cleared after it is set, even when the work failed at once.
    this.#inProgress = run.finally(() => {
      this.#inProgress = null;
    });
    await this.#inProgress;
  }

  /** Stops the timer and waits for the tick in progress (the drain). */
  async beforeApplicationShutdown(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#inProgress;
  }
}
