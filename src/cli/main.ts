import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config';
import { createApp } from '../app';
import { runMigrations } from '../database/data-source';
import { openDatabase } from '../database/open';
import { EmailTakenError, OrganizationsService } from '../organizations/organizations.service';

const USAGE = `Usage:
  npm run -s cli -- org:create --name "<name>" --email <email> [--json]
`;

async function orgCreate(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.name?.trim() || !values.email || !/^[^\s@]+@[^\s@]+$/.test(values.email)) {
    process.stderr.write(`org:create needs --name and a valid --email\n${USAGE}`);
    return 2;
  }
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
        RECONCILE_INTERVAL_MS: '0',
        DB_POOL_SIZE: '2',
      }),
      databaseUrl: db.url,
    });
    try {
      await app.init();
      const organizations = app.get(OrganizationsService);
      const created = await organizations.create({ name: values.name.trim(), email: values.email });
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
    } finally {
      await app.close();
    }
  } finally {
    await db.stop();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'org:create':
      return orgCreate(rest);
    default:
      process.stderr.write(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ConfigError || err instanceof EmailTakenError)
      process.stderr.write(err.message + '\n');
    else process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
