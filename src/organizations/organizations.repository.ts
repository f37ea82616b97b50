import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { sql } from '../database/sql';
import type { EnvironmentKind, KeyKind } from './tenant';

export interface KeyRow {
  id: string;
  kind: KeyKind;
  key_hash: Buffer;
  environment_id: string;
  organization_id: string;
  environment: EnvironmentKind;
}

/** Organizations, their environments, dashboard users and API keys. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  /** The live key with this hash and its environment: the one statement of every authenticated request. */
  liveKeyByHash(hash: Buffer): Promise<KeyRow | undefined> {
    return this.db.one<KeyRow>(sql`
      SELECT k.id, k.kind, k.key_hash, k.environment_id, k.organization_id, e.kind AS environment
        FROM api_keys k JOIN environments e ON e.id = k.environment_id
       WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL`);
  }

  async insertKey(key: {
    id: string;
    organizationId: string;
    environmentId: string;
    kind: KeyKind;
    hash: Buffer;
    display: string;
    name: string | null;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO api_keys (id, organization_id, environment_id, kind, key_hash, display, name)
      VALUES (${key.id}, ${key.organizationId}, ${key.environmentId}, ${key.kind}, ${key.hash}, ${key.display}, ${key.name})`);
  }

  async revokeKey(organizationId: string, keyId: string): Promise<boolean> {
    const changed = await this.db.exec(sql`
      UPDATE api_keys SET revoked_at = now()
       WHERE id = ${keyId} AND organization_id = ${organizationId} AND revoked_at IS NULL`);
    return changed > 0;
  }

  async touchKeys(ids: string[]): Promise<void> {
    await this.db.exec(sql`UPDATE api_keys SET last_used_at = now() WHERE id = ANY(${ids}::uuid[])`);
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.db.one(sql`SELECT 1 FROM users WHERE email = ${email}`)) !== undefined;
  }

  async insertOrganization(id: string, name: string): Promise<void> {
    await this.db.exec(sql`INSERT INTO organizations (id, name) VALUES (${id}, ${name})`);
  }

  async insertUser(user: {
    id: string;
    organizationId: string;
    email: string;
    passwordHash: string;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO users (id, organization_id, email, password_hash)
      VALUES (${user.id}, ${user.organizationId}, ${user.email}, ${user.passwordHash})`);
  }

  async insertEnvironment(id: string, organizationId: string, kind: EnvironmentKind): Promise<void> {
    await this.db.exec(
      sql`INSERT INTO environments (id, organization_id, kind) VALUES (${id}, ${organizationId}, ${kind})`,
    );
  }

  async countOrganizations(): Promise<number> {
    const row = await this.db.one<{ count: number }>(sql`SELECT count(*)::int AS count FROM organizations`);
    return row!.count;
  }
}
