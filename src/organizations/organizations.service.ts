import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { insertDefaultPaymentMethods } from '../payments/payment-methods.defaults';
import { ApiKeysService } from './api-keys.service';
import type { EnvironmentKind } from './entities';
import { generatePassword, hashPassword } from './secrets';

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
    private readonly ds: DataSource,
    private readonly keys: ApiKeysService,
  ) {}

  /**
   * An organization with its Sandbox and Production environments, a secret and a publishable key
   * for each, and a dashboard user with a generated password (unless one is given). One transaction.
   */
  async create(input: { name: string; email: string; password?: string }): Promise<CreatedOrganization> {
    const email = input.email.trim().toLowerCase();
    const password = input.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    return this.ds.transaction(async (m) => {
      const taken = await m.query('SELECT 1 FROM users WHERE email = $1', [email]);
      if (taken.length) throw new EmailTakenError(email);
      const organizationId = randomUUID();
      await m.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organizationId, input.name]);
      await m.query('INSERT INTO users (id, organization_id, email, password_hash) VALUES ($1, $2, $3, $4)', [
        randomUUID(), organizationId, email, passwordHash,
      ]);
      const credentials = {} as Record<EnvironmentKind, EnvironmentCredentials>;
      for (const kind of ['sandbox', 'production'] as const) {
        const environment = { id: randomUUID(), kind };
        await m.query('INSERT INTO environments (id, organization_id, kind) VALUES ($1, $2, $3)', [
          environment.id, organizationId, kind,
        ]);
        await insertDefaultPaymentMethods(m, environment.id);
        const secret = await this.keys.issue(m, organizationId, environment, 'secret', 'Default secret key');
        const publishable = await this.keys.issue(m, organizationId, environment, 'publishable', 'Default publishable key');
        credentials[kind] = { environmentId: environment.id, secretKey: secret.key, publishableKey: publishable.key };
      }
      return { organizationId, email, password, sandbox: credentials.sandbox, production: credentials.production };
    });
  }

  async count(): Promise<number> {
    const [{ count }] = await this.ds.query('SELECT count(*)::int AS count FROM organizations');
    return count as number;
  }
}
