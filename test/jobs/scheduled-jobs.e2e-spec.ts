import { Injectable, Module, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { AppConfig, JOB_SWITCHES } from '../../src/config/config';
import { Db } from '../../src/database/db';
import { JobSchedule, ScheduledJob } from '../../src/jobs/scheduled-job';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker';
import { privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';

/*
 * One job runner (src/jobs/scheduled-job.ts, docs/operations.md "Jobs"): every job of the app is a
 * ScheduledJob declared in a `<verb>.job.ts` file, is off in the test apps unless a test turns it
 * on, and shares the runner's overlap guard, outage line and drain.
 */

const SRC = join(__dirname, '../../src');

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : /\.ts$/.test(e.name) && !/\.spec\.ts$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/** The job classes the `*.job.ts` files of src/ export, by file (relative to src/). */
function jobClassesOfFiles(): Map<string, Type<ScheduledJob>> {
  const found = new Map<string, Type<ScheduledJob>>();
  for (const file of sourceFiles().filter((f) => f.endsWith('.job.ts'))) {
    const exported = Object.values(require(file) as Record<string, unknown>).filter(
      (v): v is Type<ScheduledJob> => typeof v === 'function' && v.prototype instanceof ScheduledJob,
    );
    expect({ file: relative(SRC, file), jobs: exported.length }).toEqual({
      file: relative(SRC, file),
      jobs: 1,
    });
    found.set(relative(SRC, file), exported[0]);
  }
  return found;
}

/** Every provider of the running app that is a scheduled job. */
function jobsOf(t: TestApp): ScheduledJob[] {
  const jobs = new Set<ScheduledJob>();
  for (const module of t.app.get(ModulesContainer).values())
    for (const wrapper of module.providers.values())
      if (wrapper.instance instanceof ScheduledJob) jobs.add(wrapper.instance);
  return [...jobs];
}

describe('every job of the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is a ScheduledJob in a `<verb>.job.ts` file named after it, and every such file’s job runs in the app', () => {
    const files = jobClassesOfFiles();
    const running = jobsOf(t);
    expect(files.size).toBeGreaterThanOrEqual(10);
    expect(running.map((j) => j.constructor).sort(byName)).toEqual([...files.values()].sort(byName));
    for (const [file, job] of files) {
      const instance = running.find((j) => j.constructor === job)!;
      expect({ file, name: instance.schedule.name }).toEqual({ file, name: basename(file, '.job.ts') });
      expect(JOB_SWITCHES).toContain(instance.schedule.switch);
    }
  });

  it('is off in a test app by default: no timer, and a tick does nothing', async () => {
    const jobs = jobsOf(t);
    for (const job of jobs) {
      expect({ job: job.schedule.name, on: job.isOn, scheduled: job.isScheduled }).toEqual({
        job: job.schedule.name,
        on: false,
        scheduled: false,
      });
    }
    // The one background worker that is not on a timer (a loop woken by NOTIFY) is off too.
    expect(t.app.get(DeliveryWorker).isRunning).toBe(false);
    const work = jobs.map((job) => jest.spyOn(job as unknown as { work: () => Promise<void> }, 'work'));
    try {
      await Promise.all(jobs.map((job) => job.tick()));
      for (const w of work) expect(w).not.toHaveBeenCalled();
    } finally {
      for (const w of work) w.mockRestore();
    }
  });

  it('is scheduled, at its interval, once its switch is on', async () => {
    // A database of its own: the jobs of this app would claim other suites' work if a tick came.
    const db = await privateDatabase();
    const on = Object.fromEntries(
      JOB_SWITCHES.map((s) => [s, typeof new AppConfig()[s] === 'boolean' ? 'true' : '3600000']),
    );
    const app = await startTestApp(on, db.url);
    try {
      for (const job of jobsOf(app))
        expect({ job: job.schedule.name, scheduled: job.isScheduled, every: job.intervalMs > 0 }).toEqual({
          job: job.schedule.name,
          scheduled: true,
          every: true,
        });
    } finally {
      await app.close();
      await db.drop();
    }
    // Closed: every timer stopped.
    for (const job of jobsOf(app)) expect(job.isScheduled).toBe(false);
  });

  it('is the only scheduling in src/: no other timer, cron or interval drives work', () => {
    // The API-key cache's heartbeat is no job: a 250 ms pg_notify on its own LISTEN connection
    // proving notifications still arrive (docs/architecture.md, "The API-key cache").
    const allowed = new Set([join('organizations', 'api-keys.service.ts')]);
    const offenders = sourceFiles()
      .filter((f) => !relative(SRC, f).startsWith(`jobs${sep}`) && !allowed.has(relative(SRC, f)))
      .filter((f) =>
        /@Cron\(|@Interval\(|@Timeout\(|setInterval\(|SchedulerRegistry/.test(readFileSync(f, 'utf8')),
      )
      .map((f) => relative(SRC, f));
    expect(offenders).toEqual([]);
  });

  it('has its row in docs/operations.md "Jobs": name, file, switch', () => {
    const doc = readFileSync(join(__dirname, '../../docs/operations.md'), 'utf8');
    const section = doc.slice(
      doc.indexOf('\n## Jobs\n'),
      doc.indexOf('\n## ', doc.indexOf('\n## Jobs\n') + 1),
    );
    expect(section.length).toBeGreaterThan(100);
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    for (const [file, job] of jobClassesOfFiles()) {
      const name = basename(file, '.job.ts');
      const row = rows.find((r) => r.startsWith(`| \`${name}\``));
      expect({ name, row: row !== undefined }).toEqual({ name, row: true });
      expect(row).toContain(`src/${file.split(sep).join('/')}`);
      const instance = jobsOf(t).find((j) => j.constructor === job)!;
      expect(row).toContain(`\`${instance.schedule.switch}\``);
    }
  });
});

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** A job made for these tests: each tick waits at a gate the test opens, then asks the database. */
@Injectable()
class GatedJob extends ScheduledJob {
  readonly schedule: JobSchedule = { name: 'gated', every: 3_600_000, switch: 'BILLING_SCHEDULER' };
  calls = 0;
  finished = 0;
  sawStopping = false;
  failWith: Error | null = null;
  private open: () => void = () => undefined;
  private gate: Promise<void> = Promise.resolve();
  private entered: () => void = () => undefined;
  /** Resolves when a tick is inside `work`, at the gate. */
  started: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {
    super();
  }

  /** Closes the gate: the next tick waits at it until `release`. */
  hold(): void {
    this.gate = new Promise((r) => (this.open = r));
    this.started = new Promise((r) => (this.entered = r));
  }

  release(): void {
    this.open();
  }

  /** Whether the runner told the job the application is closing (the drain has begun). */
  get drainBegun(): boolean {
    return this.stopping;
  }

  protected async work(): Promise<{ rows: number }> {
    this.calls += 1;
    if (this.failWith) throw this.failWith;
    this.entered();
    await this.gate;
    this.sawStopping = this.stopping;
    // After the gate: the pool must still be open, the drain having run before it closes.
    const rows = (await this.db.pool.query('SELECT 1 AS one')).rowCount ?? 0;
    this.finished += 1;
    return { rows };
  }
}

@Module({ providers: [GatedJob] })
class GatedJobModule {}

describe('the runner', () => {
  let t: TestApp;
  let job: GatedJob;
  beforeEach(async () => {
    t = await startTestApp({}, undefined, [GatedJobModule]);
    job = t.app.get(GatedJob);
    // Turned on after the start, as a test turns a job on: no timer, the test ticks.
    t.app.get(AppConfig).BILLING_SCHEDULER = true;
  });
  afterEach(async () => {
    job.release();
    await t.close();
  });

  it('skips a tick while the previous one is in flight, and runs the next once it is done', async () => {
    job.hold();
    const first = job.tick();
    await job.started;
    // Returns at once, without running the work nor waiting for the first tick.
    await job.tick();
    expect(job.calls).toBe(1);
    expect(job.finished).toBe(0);
    job.release();
    await first;
    expect(job.finished).toBe(1);
    await job.tick();
    expect(job.calls).toBe(2);
    expect(job.finished).toBe(2);
  });

  it('makes the app’s close wait for a running tick, which finishes on an open database; no tick starts after', async () => {
    job.hold();
    const tick = job.tick();
    await job.started;
    let closed = false;
    const closing = t.close().then(() => (closed = true));
    await waitFor(() => job.drainBegun, 'the drain to begin');
    await job.tick(); // during the drain: nothing
    expect(job.calls).toBe(1);
    expect(closed).toBe(false);
    expect(job.finished).toBe(0);
    job.release();
    await tick;
    await closing;
    expect(job.finished).toBe(1);
    expect(job.sawStopping).toBe(true);
    // The work's statement after the gate succeeded: nothing logged as failed.
    expect(t.logs.filter((l) => l.includes('gated failed'))).toEqual([]);
    t = { ...t, close: async () => undefined };
  });

  it('logs one line for an outage however many ticks fail, and one line per other failure', async () => {
    job.failWith = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (let i = 0; i < 3; i++) await job.tick();
    job.failWith = new Error('a bug');
    await job.tick();
    await job.tick();
    expect(job.calls).toBe(5);
    const logged = (text: string) => t.logs.filter((l) => l.includes(text)).length;
    await waitFor(() => logged('gated failed') === 2, 'the two lines of the bug');
    expect(logged('PostgreSQL is unreachable')).toBe(1);
    expect(logged('ECONNREFUSED')).toBe(1);
  });
});
