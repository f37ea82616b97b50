import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { allJobsOff } from '../src/config/config';
import type { CreatedOrganization } from '../src/organizations/organizations.service';

/** The repository's root (this file runs from dist/bench/). */
export const ROOT = resolve(__dirname, '..', '..');

/**
 * The environment of a Khoums the bench spawns: every scheduled job off (`allJobsOff()`, the
 * switches of docs/operations.md "Jobs", as in the test apps), no demo organization, JSON logs at
 * `warn`; `extra` sets the rest (DATABASE_URL, PORT…) and turns on what a scenario measures (a job,
 * the info logs). One place, so a job added later is off in every bench unless one turns it on.
 */
export function khoumsEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...allJobsOff(), DEMO_ORG: 'false', LOG_FORMAT: 'json', LOG_LEVEL: 'warn', ...extra };
}

/**
 * Starts `script` (relative to `cwd`: this checkout's root, or another built checkout's) and
 * resolves once its stdout says `ready`.
 */
export async function startProcess(
  script: string,
  env: NodeJS.ProcessEnv,
  ready: string,
  cwd = ROOT,
): Promise<ChildProcess> {
  // BENCH_PROFILE_DIR: every process the bench starts writes a V8 CPU profile there when it exits
  // (open it in Chrome's DevTools, or sum its self times by function).
  const profile = process.env.BENCH_PROFILE_DIR;
  const args = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, script] : [script];
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      // Keep the tail: start-up logs may run long before the line that says the process is ready.
      out = (out + d.toString()).slice(-10_000);
      if (out.includes(ready)) ok();
    });
    child.once('exit', (code) => fail(new Error(`${script} exited (${code}) before it was ready:\n${out}`)));
  });
  child.stdout.resume();
  return child;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The operator's command: a new organization and its keys, as for a merchant (the CLI of this
 * checkout, or of another built one under `root`, which migrates the database as that version does).
 */
export function createOrganization(
  url: string,
  name: string,
  email: string,
  root = ROOT,
  extra: string[] = [],
): CreatedOrganization {
  return JSON.parse(
    execFileSync(
      process.execPath,
      [
        join(root, 'dist/src/cli/main.js'),
        'org:create',
        '--name',
        name,
        '--email',
        email,
        '--json',
        ...extra,
      ],
      { cwd: root, env: { ...process.env, DATABASE_URL: url } },
    ).toString(),
  ) as CreatedOrganization;
}
