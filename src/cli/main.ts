import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { isUUID } from 'class-validator';
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../admin/audit-log.repository';
import { OperatorActionsService } from '../admin/operator-actions.service';
import { OperatorEmailTakenError, OperatorsService } from '../admin/operators.service';
import { AppError } from '../common/errors/app-error';
import { allJobsOff, ConfigError, loadConfig } from '../config/config';
import { createApp } from '../app';
import { runMigrations } from '../database/data-source';
import { Db } from '../database/db';
import { LedgerService } from '../ledger/ledger.service';
import { openDatabase } from '../database/open';
import { toOrganizationJson } from '../organizations/account';
import { EmailTakenError, OrganizationsService } from '../organizations/organizations.service';

const USAGE = `Usage:
  npm run -s cli -- org:create --name "<name>" --email <email> [--json] [--unverified] [--platform]
                 [--payout-iban <IBAN> --payout-bank "<bank>" --payout-holder "<name>"]
  npm run -s cli -- org:verify <organization id>
  npm run -s cli -- org:reject <organization id> --reason "<text>"
  npm run -s cli -- org:platform <organization id>
  npm run -s cli -- operator:create --email <email> [--json]
  npm run -s cli -- ledger:check [--json]
`;

/**
 * Runs `work` in the application context (no HTTP server, no jobs or workers), after pending
 * migrations, on the service's database: the CLI acts through the very code the service runs.
 */
async function withApp<T>(work: (app: NestFastifyApplication) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await runMigrations(config.DATABASE_DIRECT_URL ?? db.url);
    // The application context (no HTTP server, no jobs or workers): organizations are created by
    // the very code the service runs, every module's environment setup included.
    const app = await createApp({
      config: loadConfig({
        ...process.env,
        LOG_LEVEL: 'warn',
        WEBHOOK_WORKER: 'false',
        ...allJobsOff(),
        DB_POOL_SIZE: '2',
      }),
      databaseUrl: db.url,
    });
    try {
      await app.init();
      return await work(app);
    } finally {
      await app.close();
    }
  } finally {
    await db.stop();
  }
}

async function orgCreate(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      json: { type: 'boolean', default: false },
      unverified: { type: 'boolean', default: false },
      platform: { type: 'boolean', default: false },
      'payout-iban': { type: 'string' },
      'payout-bank': { type: 'string' },
      'payout-holder': { type: 'string' },
    },
  });
  if (!values.name?.trim() || !values.email || !/^[^\s@]+@[^\s@]+$/.test(values.email)) {
    process.stderr.write(`org:create needs --name and a valid --email\n${USAGE}`);
    return 2;
  }
  const payout = [values['payout-iban'], values['payout-bank'], values['payout-holder']];
  if (payout.some((v) => v !== undefined) && payout.some((v) => v === undefined)) {
    process.stderr.write(
      `org:create: --payout-iban, --payout-bank and --payout-holder go together\n${USAGE}`,
    );
    return 2;
  }
  const [iban, bank, holderName] = payout;
  return withApp(async (app) => {
    // The organization and its payout account together: a refused account creates nothing.
    const created = await app.get(Db).transaction(async () => {
      const organization = await app.get(OrganizationsService).create({
        name: values.name!.trim(),
        email: values.email!,
        verification: values.unverified ? 'unverified' : 'verified',
        platform: values.platform,
      });
      if (iban !== undefined && bank !== undefined && holderName !== undefined) {
        await app
          .get(OperatorActionsService)
          .setApprovedPayoutAccount(CLI_ACTOR, organization.organizationId, { iban, bank, holderName });
      }
      return organization;
    });
    if (values.json) {
      process.stdout.write(JSON.stringify(created) + '\n');
    } else {
      process.stdout.write(
        [
          `Organization ${created.organizationId} created.`,
          `Dashboard login: ${created.email} / ${created.password}`,
          `Sandbox:    ${created.sandbox.secretKey}  ${created.sandbox.publishableKey}`,
          `Production: ${created.production.secretKey}  ${created.production.publishableKey}`,
          '',
        ].join('\n'),
      );
    }
    return 0;
  });
}

/** org:verify, org:reject, org:platform: an operator's action on one organization, audited as the CLI's. */
async function orgAction(
  command: 'org:verify' | 'org:reject' | 'org:platform',
  args: string[],
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { reason: { type: 'string' } },
  });
  const [organizationId] = positionals;
  if (positionals.length !== 1 || !isUUID(organizationId)) {
    process.stderr.write(`${command} needs one organization id\n${USAGE}`);
    return 2;
  }
  if (command === 'org:reject' && !values.reason?.trim()) {
    process.stderr.write(`org:reject needs --reason "<text>"\n${USAGE}`);
    return 2;
  }
  return withApp(async (app) => {
    const actions = app.get(OperatorActionsService);
    const change =
      command === 'org:verify'
        ? await actions.verify(CLI_ACTOR, organizationId)
        : command === 'org:reject'
          ? await actions.reject(CLI_ACTOR, organizationId, values.reason!)
          : await actions.setPlatform(CLI_ACTOR, organizationId, true);
    process.stdout.write(JSON.stringify(toOrganizationJson(change.after)) + '\n');
    return 0;
  });
}

/**
 * operator:create: an operator of /admin with a one-time password (changed at first sign-in) and
 * a TOTP secret as an otpauth:// URI, both printed once and never stored in clear.
 */
async function operatorCreate(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const email = values.email?.trim();
  if (!email || email.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    process.stderr.write(`operator:create needs a valid --email\n${USAGE}`);
    return 2;
  }
  return withApp(async (app) => {
    const created = await app.get(OperatorsService).create(email);
    if (values.json) {
      process.stdout.write(JSON.stringify(created) + '\n');
    } else {
      process.stdout.write(
        [
          `Operator ${created.id} created: ${created.email}`,
          `One-time password (changed at first sign-in): ${created.password}`,
          `TOTP secret for an authenticator app: ${created.otpauthUri}`,
          '',
        ].join('\n'),
      );
    }
    return 0;
  });
}

/**
 * Proves the ledger's invariants per environment (docs/ledger.md); exits 1 on any difference.
 * `--json`: the whole answer as JSON; else one line per environment with a problem, and a summary.
 */
async function ledgerCheck(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } } });
  return withApp(async (app) => {
    const result = await app.get(LedgerService).check();
    if (values.json) process.stdout.write(JSON.stringify(result) + '\n');
    else {
      for (const e of result.environments)
        for (const p of e.problems)
          process.stdout.write(`${e.environmentId} ${p.kind} ${p.id ?? ''} ${p.detail}\n`);
      process.stdout.write(
        `${result.ok ? 'ledger ok' : 'ledger differs'}: ${result.environments.length} environments checked\n`,
      );
    }
    return result.ok ? 0 : 1;
  });
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'org:create':
      return orgCreate(rest);
    case 'org:verify':
    case 'org:reject':
    case 'org:platform':
      return orgAction(command, rest);
    case 'operator:create':
      return operatorCreate(rest);
    case 'ledger:check':
      return ledgerCheck(rest);
    default:
      process.stderr.write(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (
      err instanceof ConfigError ||
      err instanceof EmailTakenError ||
      err instanceof OperatorEmailTakenError ||
      err instanceof AppError
    )
      process.stderr.write(err.message + '\n');
    else process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
