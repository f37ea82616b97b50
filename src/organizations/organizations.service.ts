import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Db } from '../database/db';
import { ApiKeysService } from './api-keys.service';
import { EnvironmentSetup } from './environment-setup';
import { OrganizationsRepository } from './organizations.repository';
import { generatePassword, hashPassword } from './secrets';
import type { EnvironmentKind } from './tenant';

export interface EnvironmentCredentials {
  environmentId: string;
  secretKey: string;
  publishableKey: string;
}

/** Exactly the JSON of CONTRACT.md "Running" (`org:create --json`). */
export interface CreatedOrganization {
  organizationId: string;
  email: string;
  password: string;
  sandbox: EnvironmentCredentials;
  production: EnvironmentCredentials;
}

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`A dashboard user with email ${email} already exists`);
  }
}

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly db: Db,
    private readonly repo: OrganizationsRepository,
    private readonly keys: ApiKeysService,
    private readonly setup: EnvironmentSetup,
  ) {}

  /**
   * An organization with its Sandbox and Production environments (each set up by the registered
   * steps), a secret and a publishable key for each, and a dashboard user with a generated
   * password (unless one is given). One transaction.
   */
  async create(input: { name: string; email: string; password?: string }): Promise<CreatedOrganization> {
    const email = input.email.trim().toLowerCase();
    const password = input.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async () => {
      if (await this.repo.emailTaken(email)) throw new EmailTakenError(email);
      const organizationId = randomUUID();
      await this.repo.insertOrganization(organizationId, input.name);
      await this.repo.insertUser({ id: randomUUID(), organizationId, email, passwordHash });
      const credentials = {} as Record<EnvironmentKind, EnvironmentCredentials>;
      for (const kind of ['sandbox', 'production'] as const) {
        const environment = { id: randomUUID(), organizationId, kind };
        await this.repo.insertEnvironment(environment.id, organizationId, kind);
        await this.setup.run(environment);
        const secret = await this.keys.issue(organizationId, environment, 'secret', 'Default secret key');
        const publishable = await this.keys.issue(
          organizationId,
          environment,
          'publishable',
          'Default publishable key',
        );
        credentials[kind] = {
          environmentId: environment.id,
          secretKey: secret.key,
          publishableKey: publishable.key,
        };
      }
      return {
        organizationId,
        email,
        password,
        sandbox: credentials.sandbox,
        production: credentials.production,
      };
    });
  }

  count(): Promise<number> {
    return this.repo.countOrganizations();
  }
}
