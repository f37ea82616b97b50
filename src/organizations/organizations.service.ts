import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Db } from '../database/db';
import { ApiKeysService } from './api-keys.service';
import { ConnectedAccountsRepository } from './connected-accounts.repository';
import { EnvironmentSetup } from './environment-setup';
import { OrganizationsRepository } from './organizations.repository';
import { UsersRepository } from './users.repository';
import { generatePassword, hashPassword } from './secrets';
import type { VerificationStatus } from './verification';
import type { EnvironmentKind, NewEnvironment } from './tenant';

export interface EnvironmentCredentials {
  environmentId: string;
  secretKey: string;
  publishableKey: string;
}

/** Exactly the JSON `org:create --json` prints (README "Run it"). */
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
    private readonly users: UsersRepository,
    private readonly keys: ApiKeysService,
    private readonly setup: EnvironmentSetup,
    private readonly connected: ConnectedAccountsRepository,
  ) {}

  /**
   * An organization with its Sandbox and Production environments (each set up by the registered
   * steps), a secret and a publishable key for each, and its owner: a dashboard user with a
   * generated password (unless one is given). One transaction. An operator's act (the CLI), so
   * the organization is `verified` unless told otherwise (docs/going-live.md).
   */
  async create(input: {
    name: string;
    email: string;
    password?: string;
    verification?: 'verified' | 'unverified';
    platform?: boolean;
  }): Promise<CreatedOrganization> {
    const password = input.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    const standing = { verification: input.verification ?? 'verified', platform: input.platform ?? false };
    return this.db.transaction(async () => {
      const { organizationId, email, environments } = await this.insertWithOwner(
        input,
        passwordHash,
        standing,
      );
      const credentials = {} as Record<EnvironmentKind, EnvironmentCredentials>;
      for (const environment of environments) {
        const { kind } = environment;
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

  /**
   * Dashboard sign-up: the organization, its two environments and its owner, without keys (the
   * owner creates them on the keys page, where each is shown once). One transaction. It starts
   * `unverified`: Production money waits for the owner's application to be approved.
   */
  async signUp(input: { name: string; email: string; password: string }): Promise<{
    organizationId: string;
    userId: string;
  }> {
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction(async () => {
      const { organizationId, userId } = await this.insertWithOwner(input, passwordHash, {
        verification: 'unverified',
        platform: false,
      });
      return { organizationId, userId };
    });
  }

  /**
   * A merchant organization connected to the platform `platformId` (docs/platforms.md): its two
   * environments and its owner, who has no password until an onboarding link sets it,
   * `unverified`, without keys. One transaction; its id.
   */
  async createConnected(platformId: string, input: { name: string; email: string }): Promise<string> {
    return this.db.transaction(async () => {
      // No password: the merchant sets theirs through an onboarding link.
      const { organizationId } = await this.insertWithOwner(input, null, {
        verification: 'unverified',
        platform: false,
      });
      await this.connected.connect(organizationId, platformId);
      return organizationId;
    });
  }

  private async insertWithOwner(
    input: { name: string; email: string },
    passwordHash: string | null,
    standing: { verification: 'verified' | 'unverified'; platform: boolean },
  ) {
    const email = input.email.trim().toLowerCase();
    if (await this.users.emailTaken(email)) throw new EmailTakenError(email);
    const organizationId = randomUUID();
    const userId = randomUUID();
    await this.repo.insertOrganization(organizationId, input.name, standing);
    await this.users.insertUser({ id: userId, organizationId, email, passwordHash, role: 'owner' });
    const environments: NewEnvironment[] = [];
    for (const kind of ['sandbox', 'production'] as const) {
      const environment = { id: randomUUID(), organizationId, kind };
      await this.repo.insertEnvironment(environment.id, organizationId, kind);
      await this.setup.run(environment);
      environments.push(environment);
    }
    return { organizationId, userId, email, environments };
  }

  async name(organizationId: string): Promise<string | undefined> {
    return (await this.repo.organizationName(organizationId))?.name;
  }

  /** The id of one of the organization's environments. */
  async environmentId(organizationId: string, kind: EnvironmentKind): Promise<string | undefined> {
    return (await this.repo.environment(organizationId, kind))?.id;
  }

  /**
   * The operators' list: organizations whose name contains `q` (or whose id is `q`), of one
   * verification status when given, newest first, at most 100.
   */
  searchOrganizations(filter: {
    q?: string;
    status?: VerificationStatus;
  }): Promise<
    { id: string; name: string; verificationStatus: VerificationStatus; platform: boolean; createdAt: Date }[]
  > {
    return this.repo.searchOrganizations(filter);
  }

  count(): Promise<number> {
    return this.repo.countOrganizations();
  }
}
